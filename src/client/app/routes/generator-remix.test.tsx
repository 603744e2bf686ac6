import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { GenerationRecord } from '../../../shared/generations';
import { dismissToast } from '../../components/ui/use-toast';
import { continueDraft, remixDraft, saveGeneratorDraft } from '../../features/generations/remix/generator-draft';
import {
  balance,
  callsTo,
  createAuthUser,
  json,
  postedBodies,
  preloadPage,
  renderApp,
  stubApi,
} from '../testing/render-app';
import { testModel } from '../../../../tests/support/model-info';

const model = testModel;
const MODELS = [
  model({
    id: 'fal-veo3',
    engine: 'fal',
    name: 'Veo 3 (fal.ai)',
    inputs: ['text', 'image'],
    credits: 4,
    economyCredits: 2,
    isDefault: true,
    isPreview: false,
  }),
  model({
    id: 'kling-v2v',
    engine: 'kling',
    name: 'Kling-V2V',
    available: false,
    reason: 'Not available on this server: it has no Kling API keys.',
  }),
  model({}),
  model({
    id: 'fal-veo3.1',
    engine: 'fal',
    name: 'Veo 3.1 (fal.ai)',
    inputs: ['text', 'image'],
    durations: [4, 6, 8],
    credits: 4,
    economyCredits: 2,
    endFrame: true,
    referenceImages: 3,
    referencesAlone: true,
    isPreview: false,
  }),
];
const IMAGE = '/objects/uploads/11111111-1111-4111-8111-111111111111/22222222-2222-4222-8222-222222222222';
const VIDEO = '/objects/uploads/11111111-1111-4111-8111-111111111111/33333333-3333-4333-8333-333333333333';
const END = '/objects/uploads/11111111-1111-4111-8111-111111111111/44444444-4444-4444-8444-444444444444';
const REFERENCE = '/objects/uploads/11111111-1111-4111-8111-111111111111/55555555-5555-4555-8555-555555555555';

const record = (overrides: Partial<GenerationRecord>): GenerationRecord => ({
  id: 'g1',
  prompt: 'A lighthouse at dusk',
  status: 'completed',
  creditsUsed: 1,
  duration: 8,
  model: 'kling-v2v',
  hasAudio: false,
  outputVideoUrl: '/api/media/x',
  posterUrl: null,
  watchPath: null,
  createdAt: new Date().toISOString(),
  expiresAt: new Date(Date.now() + 3600_000).toISOString(),
  progress: 100,
  progressStage: 'Completed',
  errorMessage: null,
  isEconomy: true,
  settings: { aspectRatio: '9:16', seed: 5 },
  inputs: { image: IMAGE, video: VIDEO },
  ...overrides,
});

function stub() {
  const fetchMock = stubApi({
    'GET /api/auth/user': () => json(200, createAuthUser()),
    'GET /api/user/balance': () => balance({ availableCredits: 20, isUnlimited: false, plan: 'JUST_FOR_FUN' }),
    'GET /api/models': () => json(200, { models: MODELS }),
    'GET /api/video-generation': () => json(200, []),
    'POST /api/files/cleanup': () => json(200, { deleted: 0 }),
    'POST /api/video-generation': () => json(400, { code: 'x', message: 'stop here' }),
  });
  // The generator prices videos itself: the estimate endpoint is never asked.
  return fetchMock;
}

preloadPage(() => import('./generator'));

afterEach(() => {
  cleanup();
  dismissToast();
  sessionStorage.clear();
  vi.unstubAllGlobals();
});

describe('Remix and Continue drafts', () => {
  it('keep the video’s own model when it can run, else the default (for Continue: one that takes an image)', () => {
    expect(remixDraft(record({ model: 'local' }), MODELS).model).toBe('local');
    // Kling is not available here: Remix leaves the choice to the default, Continue picks one that takes an image.
    expect(remixDraft(record({}), MODELS)).toMatchObject({
      model: null,
      isEconomy: true,
      inputs: { image: IMAGE, video: VIDEO },
    });
    expect(continueDraft(record({}), MODELS, '/objects/uploads/a/b')).toMatchObject({
      origin: 'continue',
      model: 'fal-veo3',
      inputs: { image: '/objects/uploads/a/b' },
    });
    expect(JSON.parse(remixDraft(record({}), MODELS).advancedSettings)).toEqual({ aspectRatio: '9:16', seed: 5 });
  });

  it('open the generator filled in; an input the model cannot take holds Generate with the server’s sentence', async () => {
    const fetchMock = stub();
    saveGeneratorDraft(remixDraft(record({}), MODELS));
    renderApp('/generator');
    expect(await screen.findByText(/the prompt, settings, model and inputs of your video are filled in/)).toBeDefined();
    expect(screen.getByLabelText<HTMLTextAreaElement>('Video Description').value).toBe('A lighthouse at dusk');
    // The video's shape fills its control; the JSON keeps the rest.
    expect(JSON.parse(screen.getByLabelText<HTMLTextAreaElement>('Advanced settings (JSON)').value)).toEqual({
      seed: 5,
    });
    expect((await screen.findByRole<HTMLInputElement>('radio', { name: 'Portrait 9:16' })).checked).toBe(true);
    expect(screen.getByText('✓ Image Ready')).toBeDefined();
    expect(screen.getByText('✓ Video Ready')).toBeDefined();
    // The default model (Veo 3 on fal.ai) takes no video: the generator says so and waits.
    expect(
      await screen.findByText('Veo 3 (fal.ai) cannot take a video. Remove it, or choose a model that takes one.'),
    ).toBeDefined();
    expect(screen.getByRole('button', { name: 'Generate Video' }).hasAttribute('disabled')).toBe(true);
    // Its price comes from the catalogue: 2 credits in economy mode.
    await waitFor(() => expect(screen.getAllByText('2 credits').length).toBeGreaterThan(0));
    expect(callsTo(fetchMock, '/api/credits/estimate')).toEqual([]);
    expect(screen.getByText('2 credits instead of 4 credits.')).toBeDefined();
    await userEvent.click(screen.getByRole('button', { name: 'Remove video' }));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Generate Video' }).hasAttribute('disabled')).toBe(false),
    );
    // The draft is used once: it is gone now.
    expect(sessionStorage.length).toBe(0);
  });

  it('Continue shows the last frame it will use; Remove takes it out of the request, at the same price', async () => {
    const fetchMock = stubApi({
      'GET /api/auth/user': () => json(200, createAuthUser()),
      'GET /api/user/balance': () => balance({ availableCredits: 20, isUnlimited: false, plan: 'JUST_FOR_FUN' }),
      'GET /api/models': () => json(200, { models: MODELS }),
      'GET /api/video-generation': () => json(200, []),
      'POST /api/files/cleanup': () => json(200, { deleted: 0 }),
      'POST /api/video-generation': () => json(201, { ...record({ status: 'pending', model: 'local' }), group: [] }),
    });
    saveGeneratorDraft(continueDraft(record({ model: 'local' }), MODELS, IMAGE));
    renderApp('/generator');

    const frame = await screen.findByRole('img', { name: 'Image to use: Last frame of your video' });
    expect(frame.getAttribute('src')).toBe(`/api${IMAGE}`);
    await waitFor(() => expect(screen.getAllByText('0.5 credits').length).toBeGreaterThan(0));
    await userEvent.click(screen.getByRole('button', { name: 'Remove image' }));

    expect(screen.queryByRole('img', { name: /Image to use/ })).toBeNull();
    expect(screen.getByRole('button', { name: 'Choose Image' })).toBeDefined();
    expect(screen.getAllByText('0.5 credits').length).toBeGreaterThan(0);
    await userEvent.click(screen.getByRole('button', { name: 'Generate Video' }));
    await waitFor(() => expect(callsTo(fetchMock, '/api/video-generation').length).toBeGreaterThan(1), {
      timeout: 10_000,
    });
    const sent = callsTo(fetchMock, '/api/video-generation').find(([, init]) => init?.method === 'POST');
    const body = sent?.[1]?.body;
    expect(JSON.parse(typeof body === 'string' ? body : '{}')).toMatchObject({
      imageFile: null,
      videoFile: null,
      audioFile: null,
    });
  });
});

describe('Remix of a video with keyframes or reference images', () => {
  it('refills the end frame with its start frame, and sends both', async () => {
    const keyed = record({ model: 'local', settings: {}, inputs: { image: IMAGE, endImage: END } });
    expect(remixDraft(keyed, MODELS)).toMatchObject({
      inputs: { image: IMAGE },
      keyframes: { endImage: END, referenceImages: [] },
      gone: [],
    });
    const fetchMock = stubApi({
      'GET /api/auth/user': () => json(200, createAuthUser()),
      'GET /api/user/balance': () => balance({ availableCredits: 20, isUnlimited: false, plan: 'JUST_FOR_FUN' }),
      'GET /api/models': () => json(200, { models: MODELS.map((m) => ({ ...m, endFrame: true })) }),
      'GET /api/video-generation': () => json(200, []),
      'POST /api/files/cleanup': () => json(200, { deleted: 0 }),
      'POST /api/video-generation': () => json(400, { code: 'x', message: 'stop here' }),
    });
    saveGeneratorDraft(remixDraft(keyed, MODELS));
    renderApp('/generator');
    expect(await screen.findByRole('button', { name: /Start frame Ready/ })).toBeDefined();
    expect(screen.getByRole('button', { name: /End frame Ready/ })).toBeDefined();
    const generate = screen.getByRole('button', { name: 'Generate Video' });
    await waitFor(() => expect(generate.hasAttribute('disabled')).toBe(false));
    await userEvent.click(generate);
    await waitFor(() => expect(postedBodies(fetchMock, '/api/video-generation')).toHaveLength(1));
    expect(postedBodies(fetchMock, '/api/video-generation')[0]).toMatchObject({
      model: 'local',
      imageFile: IMAGE,
      endImageFile: END,
      referenceImageFiles: [],
    });
  });

  it('refills the reference images of a Veo 3.1 video, with its frame slots saying why they are unavailable', async () => {
    const fetchMock = stub();
    saveGeneratorDraft(remixDraft(record({ model: 'fal-veo3.1', inputs: { referenceImages: [REFERENCE] } }), MODELS));
    renderApp('/generator');
    expect(await screen.findByText(/✓\s*Reference 1/)).toBeDefined();
    expect(
      screen.getByText(
        'Veo 3.1 (fal.ai) takes reference images or a start and end frame, not both. Remove the reference images to use frames.',
      ),
    ).toBeDefined();
    const generate = screen.getByRole('button', { name: 'Generate Video' });
    await waitFor(() => expect(generate.hasAttribute('disabled')).toBe(false));
    await userEvent.click(generate);
    await waitFor(() => expect(postedBodies(fetchMock, '/api/video-generation')).toHaveLength(1));
    expect(postedBodies(fetchMock, '/api/video-generation')[0]).toMatchObject({
      model: 'fal-veo3.1',
      imageFile: null,
      endImageFile: null,
      referenceImageFiles: [REFERENCE],
    });
  });

  it('says which of the video’s inputs are gone instead of failing at Generate', async () => {
    stub();
    const video = record({
      model: 'fal-veo3.1',
      inputs: { image: IMAGE },
      goneInputs: ['endImage', 'referenceImage', 'referenceImage'],
    });
    expect(remixDraft(video, MODELS).gone).toEqual(['endImage', 'referenceImage', 'referenceImage']);
    saveGeneratorDraft(remixDraft(video, MODELS));
    renderApp('/generator');
    expect(
      await screen.findByText(
        /Its end frame and 2 reference images are no longer available \(uploads are kept 24 hours\): choose them again to use them\./,
      ),
    ).toBeDefined();
    expect(await screen.findByRole('button', { name: /Start frame Ready/ })).toBeDefined();
    expect(screen.getByRole('button', { name: /Choose End frame/ })).toBeDefined();
  });
});
