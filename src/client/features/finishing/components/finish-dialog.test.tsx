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
import { type FinishUpload, FinishDialog } from './finish-dialog';

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

const noRecording: FinishUpload = {
  objectPath: null,
  control: <button type="button">Choose Recording</button>,
  uploading: false,
};

const noPicture: FinishUpload = {
  objectPath: null,
  control: <button type="button">Choose Picture</button>,
  uploading: false,
};

/** The fal.ai tools as GET /api/finishing lists them with fal connected (engines/finishing.ts). */
const FAL_TOOLS = [
  tool({
    id: 'fal-bytedance-upscale',
    name: 'ByteDance Upscaler (fal.ai)',
    method: 'Upscaled by the ByteDance video upscaler, an AI model, through fal.ai',
    ai: true,
    maxInputSeconds: 60,
    fps: [60],
  }),
  tool({
    id: 'fal-mmaudio',
    action: 'add-sound',
    name: 'MMAudio V2 (fal.ai)',
    method: 'Sound made to fit the picture by MMAudio V2, an AI model, through fal.ai',
    ai: true,
    credits: 0.05,
    maxInputSeconds: 30,
    resolutions: [],
    fps: [],
    prompt: 'optional',
  }),
  tool({
    id: 'fal-sync-lipsync',
    action: 'lip-sync',
    name: 'Sync Lipsync 2.0 (fal.ai)',
    method: 'The mouth moved to the voice by Sync Lipsync 2.0, an AI model, through fal.ai',
    ai: true,
    maxInputSeconds: 120,
    resolutions: [],
    fps: [],
    audio: 'required',
    needsFace: true,
  }),
  tool({
    id: 'fal-ray2-modify',
    action: 'restyle',
    name: 'Luma Ray 2 Modify (fal.ai)',
    method: 'Restyled by Luma Ray 2 Modify, an AI model, through fal.ai',
    ai: true,
    credits: 0.3,
    maxInputSeconds: 10,
    resolutions: [],
    fps: [],
    prompt: 'required',
  }),
];

function renderDialog(props: { video?: GenerationRecord; recording?: FinishUpload; picture?: FinishUpload } = {}) {
  const onStarted = vi.fn();
  const client = createQueryClient();
  render(
    <QueryClientProvider client={client}>
      <FinishDialog
        video={props.video ?? video()}
        recording={props.recording ?? noRecording}
        picture={props.picture ?? noPicture}
        onStarted={onStarted}
      />
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

  it('lets the maker choose among the tools of an action, and asks each only for what it takes', async () => {
    const { posted } = stubFinishing([...LOCAL_TOOLS, ...FAL_TOOLS]);
    renderDialog();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /Finish/ }));
    const dialog = await screen.findByRole('dialog');
    expect(
      within(within(dialog).getByRole('radiogroup', { name: 'What to do' }))
        .getAllByRole('radio')
        .map((radio) => radio.closest('label')?.textContent),
    ).toEqual(['Upscale and smooth', 'Add sound', 'Lip-sync', 'Restyle']);

    // Smoothing to 48 on this server, then the ByteDance upscaler, which makes only 60: back to Keep.
    await user.click(within(dialog).getByRole('radio', { name: '48 frames a second' }));
    const upscalers = within(dialog).getByRole('radiogroup', { name: 'Made by' });
    await user.click(within(upscalers).getByRole('radio', { name: 'ByteDance Upscaler (fal.ai)' }));
    expect(within(dialog).getByRole('radio', { name: 'Keep the frame rate' })).toHaveProperty('checked', true);
    expect(within(dialog).queryByRole('radio', { name: '48 frames a second' })).toBeNull();

    // Add sound: this server's mix wants a recording; MMAudio makes the sound from an optional description.
    await user.click(within(dialog).getByRole('radio', { name: 'Add sound' }));
    expect(within(dialog).getByText('Choose Recording')).toBeDefined();
    expect(within(dialog).queryByLabelText(/What it should sound like/)).toBeNull();
    await user.click(within(dialog).getByRole('radio', { name: 'MMAudio V2 (fal.ai)' }));
    expect(within(dialog).queryByText('Choose Recording')).toBeNull();
    // 0.05 credits a second for 5 seconds.
    expect(within(dialog).getByTestId('finish-cost').textContent).toBe('0.25 credits');
    await user.type(within(dialog).getByLabelText('What it should sound like (optional)'), '  Rain on a tin roof  ');
    // Each action keeps its own description: the restyle's box starts empty.
    await user.click(within(dialog).getByRole('radio', { name: 'Restyle' }));
    expect(within(dialog).getByLabelText<HTMLTextAreaElement>('The new look').value).toBe('');
    await user.click(within(dialog).getByRole('radio', { name: 'Add sound' }));
    expect(within(dialog).getByLabelText<HTMLTextAreaElement>('What it should sound like (optional)').value).toBe(
      '  Rain on a tin roof  ',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Add sound · 0.25 credits' }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toEqual({ action: 'add-sound', tool: 'fal-mmaudio', prompt: 'Rain on a tin roof' });
  });

  it('asks lip-sync for the voice and says a face is needed, then sends the voice', async () => {
    const { posted } = stubFinishing([...LOCAL_TOOLS, ...FAL_TOOLS]);
    const user = userEvent.setup();
    renderDialog();
    await user.click(await screen.findByRole('button', { name: /Finish/ }));
    let dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('radio', { name: 'Lip-sync' }));
    expect(within(dialog).getByText('Voice recording')).toBeDefined();
    expect(within(dialog).getByText(/A face must be seen clearly in the video/)).toBeDefined();
    expect(within(dialog).getByText('Choose the voice recording.')).toBeDefined();
    expect(within(dialog).getByRole('button', { name: 'Lip-sync · 0.5 credits' }).hasAttribute('disabled')).toBe(true);
    cleanup();

    renderDialog({
      recording: { objectPath: '/objects/uploads/u1/voice', control: <p>✓ Recording Ready</p>, uploading: false },
    });
    await user.click(await screen.findByRole('button', { name: /Finish/ }));
    dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('radio', { name: 'Lip-sync' }));
    await user.click(within(dialog).getByRole('button', { name: 'Lip-sync · 0.5 credits' }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toEqual({ action: 'lip-sync', tool: 'fal-sync-lipsync', audioFile: '/objects/uploads/u1/voice' });
  });

  it('asks restyle for the new look, takes an optional picture, and sends both', async () => {
    const { posted } = stubFinishing([...LOCAL_TOOLS, ...FAL_TOOLS]);
    renderDialog({
      picture: { objectPath: '/objects/uploads/u1/look', control: <p>✓ Picture Ready</p>, uploading: false },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /Finish/ }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('radio', { name: 'Restyle' }));
    expect(within(dialog).getByText('✓ Picture Ready')).toBeDefined();
    // 0.3 credits a second for 5 seconds; nothing to start until the look is described.
    const submit = within(dialog).getByRole('button', { name: 'Restyle · 1.5 credits' });
    expect(within(dialog).getByText('Describe the new look.')).toBeDefined();
    expect(submit.hasAttribute('disabled')).toBe(true);
    await user.type(within(dialog).getByLabelText('The new look'), 'A hand-drawn watercolour');
    expect(submit.hasAttribute('disabled')).toBe(false);
    await user.click(submit);
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toEqual({
      action: 'restyle',
      tool: 'fal-ray2-modify',
      prompt: 'A hand-drawn watercolour',
      imageFile: '/objects/uploads/u1/look',
    });
  });

  it('opens at once when asked to (the dashboard player sends here with ?finish=1)', async () => {
    stubFinishing(LOCAL_TOOLS);
    const onStarted = vi.fn();
    render(
      <QueryClientProvider client={createQueryClient()}>
        <FinishDialog video={video()} recording={noRecording} picture={noPicture} onStarted={onStarted} defaultOpen />
      </QueryClientProvider>,
    );
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('heading', { name: 'Finish this video' })).toBeDefined();
  });
});
