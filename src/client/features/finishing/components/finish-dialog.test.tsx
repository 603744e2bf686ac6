import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { testVideo } from '../../../../../tests/support/generation-record';
import type { FinishingTool } from '../../../../shared/finishing';
import type { CreatedGenerationRecord, GenerationRecord } from '../../../../shared/generations';
import { dismissToast } from '../../../components/ui/use-toast';
import { createQueryClient } from '../../../lib/query-client';
import { finishingToolsQueryKey } from '../api/query-keys';
import { type FinishRecording, FinishDialog } from './finish-dialog';

// The Finish dialog on its own, with the API stubbed at fetch: the page's wiring (the upload dialog,
// the list) is e2e/finishing.spec.ts's.

const tool = (overrides: Partial<FinishingTool>): FinishingTool => ({
  id: 'local-upscale',
  action: 'upscale',
  name: 'Upscale and smooth on this server',
  method: 'Upscaled with a Lanczos scaler and smoothed with motion-compensated frame interpolation (FFmpeg), not by AI',
  ai: false,
  credits: 0.1,
  pricePer: 'second',
  maxInputSeconds: 20,
  resolutions: ['1080p', '2160p'],
  fps: [48, 60],
  audio: 'none',
  prompt: 'none',
  needsFace: false,
  available: true,
  reason: null,
  ...overrides,
});

const LOCAL_TOOLS = [
  tool({}),
  tool({
    id: 'local-mix',
    action: 'add-sound',
    name: 'Add your recording on this server',
    method: 'Your recording laid under the video, trimmed and faded to its length (FFmpeg), not by AI',
    pricePer: 'video',
    maxInputSeconds: 600,
    resolutions: [],
    fps: [],
    audio: 'required',
  }),
];

const video = (overrides: Partial<GenerationRecord> = {}): GenerationRecord =>
  testVideo({ settings: { resolution: '480p' }, ...overrides });

const created = (overrides: Partial<GenerationRecord>): CreatedGenerationRecord => {
  const record = video({ status: 'pending', outputVideoUrl: null, parentId: 'v1', ...overrides });
  return { ...record, group: [record] };
};

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** Stubs fetch with the catalogue and the finish route; answers the stub and the bodies POSTed to finish. */
function stubFinishing(tools: FinishingTool[], answer: CreatedGenerationRecord = created({ id: 'f1' })) {
  const posted: unknown[] = [];
  const fetchMock = vi.fn<typeof fetch>(async (input, init) => {
    const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const path = new URL(href, window.location.origin).pathname;
    if (path === '/api/finishing') return json(200, { tools });
    if (path === '/api/video-generation/v1/finish' && init?.method === 'POST') {
      posted.push(typeof init.body === 'string' ? JSON.parse(init.body) : undefined);
      return json(201, answer);
    }
    return json(404, { code: 'not_found', message: 'Not found' });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, posted };
}

const noRecording: FinishRecording = {
  objectPath: null,
  control: <button type="button">Choose Recording</button>,
  uploading: false,
};

function renderDialog(props: { video?: GenerationRecord; recording?: FinishRecording } = {}) {
  const onStarted = vi.fn();
  const client = createQueryClient();
  render(
    <QueryClientProvider client={client}>
      <FinishDialog video={props.video ?? video()} recording={props.recording ?? noRecording} onStarted={onStarted} />
    </QueryClientProvider>,
  );
  return { onStarted, client };
}

afterEach(() => {
  cleanup();
  dismissToast();
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

describe('the Finish dialog', () => {
  it('offers upscale and add sound, prices the upscale per second, and sends the chosen resolution and frame rate', async () => {
    const { posted } = stubFinishing(LOCAL_TOOLS);
    const { onStarted } = renderDialog();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /Finish/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('heading', { name: 'Finish this video' })).toBeDefined();
    const actions = within(dialog).getByRole('radiogroup', { name: 'What to do' });
    expect(
      within(actions)
        .getAllByRole('radio')
        .map((radio) => radio.closest('label')?.textContent),
    ).toEqual(['Upscale and smooth', 'Add sound']);
    expect(within(dialog).getByTestId('finish-tool').textContent).toContain('(FFmpeg), not by AI');
    // 0.1 credits a second for 5 seconds.
    expect(within(dialog).getByTestId('finish-cost').textContent).toBe('0.5 credits');
    // A 480p video: both larger resolutions are offered; nothing chosen, nothing to start.
    const resolutions = within(dialog).getByRole('radiogroup', { name: 'Resolution' });
    expect(within(resolutions).getAllByRole('radio')).toHaveLength(3);
    const submit = within(dialog).getByRole('button', { name: /· 0\.5 credits$/ });
    expect(submit.hasAttribute('disabled')).toBe(true);

    await user.click(within(resolutions).getByRole('radio', { name: '1080p' }));
    expect(submit.textContent).toContain('Upscale · 0.5 credits');
    await user.click(within(dialog).getByRole('radio', { name: '60 frames a second' }));
    expect(submit.textContent).toContain('Upscale and smooth · 0.5 credits');
    expect(submit.hasAttribute('disabled')).toBe(false);
    await user.click(submit);

    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toEqual({ action: 'upscale', tool: 'local-upscale', resolution: '1080p', fps: 60 });
    await waitFor(() => expect(window.location.search).toBe('?video=f1'));
    expect(onStarted).toHaveBeenCalledWith(expect.objectContaining({ id: 'f1', parentId: 'v1' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('asks for the recording before adding sound, and sends it', async () => {
    const { posted } = stubFinishing(LOCAL_TOOLS);
    renderDialog({
      recording: { objectPath: '/objects/uploads/u1/tone', control: <p>✓ Recording Ready</p>, uploading: false },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /Finish/ }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('radio', { name: 'Add sound' }));
    expect(within(dialog).getByText('✓ Recording Ready')).toBeDefined();
    expect(within(dialog).getByTestId('finish-cost').textContent).toBe('0.1 credits');
    await user.click(within(dialog).getByRole('button', { name: 'Add sound · 0.1 credits' }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toEqual({ action: 'add-sound', tool: 'local-mix', audioFile: '/objects/uploads/u1/tone' });
  });

  it('says why a video too long for the tool cannot be upscaled, and needs a recording to add sound', async () => {
    stubFinishing(LOCAL_TOOLS);
    renderDialog({ video: video({ duration: 25 }) });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /Finish/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('alert').textContent).toBe(
      'Upscale and smooth on this server takes videos of at most 20 s; this one lasts 25 s.',
    );
    await user.click(within(dialog).getByRole('radio', { name: '1080p' }));
    expect(
      within(dialog)
        .getByRole('button', { name: /^Upscale · / })
        .hasAttribute('disabled'),
    ).toBe(true);
    await user.click(within(dialog).getByRole('radio', { name: 'Add sound' }));
    expect(within(dialog).getByText('Choose the recording to add.')).toBeDefined();
    expect(within(dialog).getByRole('button', { name: 'Add sound · 0.1 credits' }).hasAttribute('disabled')).toBe(true);
  });

  it('offers to finish a draft as “Finish this take”, and other videos as “Finish”', async () => {
    stubFinishing(LOCAL_TOOLS);
    renderDialog({ video: video({ isDraft: true }) });
    expect(await screen.findByRole('button', { name: 'Finish this take' })).toBeDefined();
    cleanup();
    renderDialog();
    expect(await screen.findByRole('button', { name: 'Finish' })).toBeDefined();
  });

  it('shows no Finish button when no finishing tool is available here', async () => {
    stubFinishing(LOCAL_TOOLS.map((t) => ({ ...t, available: false, reason: 'Switched off' })));
    const { client } = renderDialog();
    await waitFor(() => expect(client.getQueryState(finishingToolsQueryKey)?.status).toBe('success'));
    expect(screen.queryByRole('button', { name: /Finish/ })).toBeNull();
  });
});
