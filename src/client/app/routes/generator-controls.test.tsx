import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { ModelInfo } from '../../../shared/models';
import { dismissToast } from '../../components/ui/use-toast';
import { testModel } from '../../../../tests/support/model-info';
import { balance, createAuthUser, json, postedBodies, preloadPage, renderApp, stubApi } from '../testing/render-app';

// The generator's shape, length and camera controls: only what GET /api/models says the chosen model
// takes, priced live with that model's price (per second, per resolution), sent as the request's
// own fields, and remembered per user in this browser.

const base = { description: 'A model', inputs: ['text', 'image'], sound: false, isPreview: false } as const;
const MODELS: ModelInfo[] = [
  testModel({
    ...base,
    id: 'fal-kling-2.1',
    engine: 'fal',
    name: 'Kling 2.1 Master (fal.ai)',
    durations: [5, 10],
    aspectRatios: ['16:9', '9:16', '1:1'],
    resolutions: ['1080p'],
    cameraMoves: ['static', 'pan-left', 'dolly-in'],
    credits: 0.5,
    economyCredits: 0.25,
    pricePer: 'second',
    isDefault: true,
    inputs: ['text', 'image'],
  }),
  testModel({
    ...base,
    id: 'local',
    engine: 'local',
    name: 'Local preview engine',
    durations: [2, 3, 4],
    aspectRatios: ['16:9', '9:16'],
    resolutions: ['480p', '720p', '1080p'],
    resolutionCredits: { '1080p': 2 },
    cameraMoves: [],
    credits: 1,
    economyCredits: 0.5,
    pricePer: 'video',
    isDefault: false,
    isPreview: true,
    inputs: ['text', 'image', 'video', 'audio'],
  }),
];

const created = {
  id: 'gen-1',
  prompt: 'x',
  status: 'pending',
  creditsUsed: 1,
  duration: 5,
  model: 'fal-kling-2.1',
  hasAudio: false,
  outputVideoUrl: null,
  posterUrl: null,
  createdAt: new Date().toISOString(),
  expiresAt: null,
  progress: 0,
  progressStage: null,
  errorMessage: null,
};

function stub(userId = 'user_1') {
  return stubApi({
    'GET /api/auth/user': () => json(200, createAuthUser({ id: userId })),
    'GET /api/user/balance': () => balance({ availableCredits: 100, isUnlimited: false, plan: 'JUST_FOR_FUN' }),
    'GET /api/models': () => json(200, { models: MODELS }),
    'GET /api/video-generation': () => json(200, []),
    'POST /api/files/cleanup': () => json(200, { deleted: 0 }),
    'POST /api/video-generation': () => json(201, created),
  });
}

preloadPage(() => import('./generator'));

const radio = (name: string) => screen.getByRole<HTMLInputElement>('radio', { name });
const radioNames = (group: string) =>
  Array.from(screen.getByRole('group', { name: group }).querySelectorAll('input')).map(
    (input) => input.closest('label')?.textContent,
  );
const costShown = () => screen.getByText('Cost of this video').nextElementSibling?.textContent;

beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  dismissToast();
  vi.unstubAllGlobals();
});

describe('the generator’s shape, length and camera controls', () => {
  it('offers only what the chosen model takes, and follows a change of model', async () => {
    stub();
    renderApp('/generator');
    await screen.findByRole('group', { name: 'Duration' });
    expect(radioNames('Duration')).toEqual(['5 s', '10 s']);
    expect(radioNames('Resolution')).toEqual(['1080p']);
    expect(radioNames('Aspect ratio')).toEqual(['Landscape 16:9', 'Portrait 9:16', 'Square 1:1']);
    const camera = screen.getByLabelText<HTMLSelectElement>('Camera move');
    expect(Array.from(camera.options).map((o) => o.textContent)).toEqual([
      'No camera move (the model decides)',
      'Static',
      'Pan left',
      'Dolly in',
    ]);
    // The default duration is the model's nearest to 10 s; the resolution its only one.
    expect(radio('10 s').checked).toBe(true);

    await userEvent.selectOptions(screen.getByLabelText('Model'), 'local');
    await waitFor(() => expect(radioNames('Duration')).toEqual(['2 s', '3 s', '4 s']));
    expect(radioNames('Resolution')).toEqual(['480p', '720p', '1080p']);
    expect(radioNames('Aspect ratio')).toEqual(['Landscape 16:9', 'Portrait 9:16']);
    expect(screen.queryByLabelText('Camera move')).toBeNull();
    expect(screen.getByText('Local preview engine takes no camera moves.')).toBeDefined();
    expect(radio('4 s').checked).toBe(true);
    expect(radio('720p').checked).toBe(true);
  });

  it('prices the choice live: per second, and per resolution', async () => {
    stub();
    renderApp('/generator');
    await screen.findByRole('group', { name: 'Duration' });
    // 0.5 credits a second: 10 s is 5 credits, 5 s 2.5.
    await waitFor(() => expect(costShown()).toBe('5 credits'));
    await userEvent.click(radio('5 s'));
    await waitFor(() => expect(costShown()).toBe('2.5 credits'));

    await userEvent.selectOptions(screen.getByLabelText('Model'), 'local');
    await waitFor(() => expect(costShown()).toBe('1 credit'));
    await userEvent.click(radio('1080p'));
    await waitFor(() => expect(costShown()).toBe('2 credits'));
  });

  it('sends the picks as the request’s own fields', async () => {
    const fetchMock = stub();
    renderApp('/generator');
    await waitFor(() => expect(costShown()).toBe('5 credits'));
    // Pasted, not typed key by key: this test is about the picks. Typed, its last keystroke was lost
    // twice in full runs on a busy machine (2026-11-28), never alone; generator.test.tsx types.
    const description = screen.getByLabelText('Video Description');
    await userEvent.click(description);
    await userEvent.paste('A cat on a boat');
    expect((description as HTMLTextAreaElement).value).toBe('A cat on a boat');
    await userEvent.click(radio('Portrait 9:16'));
    await userEvent.click(radio('5 s'));
    await userEvent.selectOptions(screen.getByLabelText('Camera move'), 'dolly-in');
    await waitFor(() => expect(costShown()).toBe('2.5 credits'));
    await userEvent.click(screen.getByRole('button', { name: 'Generate Video' }));
    await waitFor(() => expect(postedBodies(fetchMock, '/api/video-generation')).toHaveLength(1), { timeout: 10_000 });
    expect(postedBodies(fetchMock, '/api/video-generation')[0]).toMatchObject({
      description: 'A cat on a boat',
      aspectRatio: '9:16',
      duration: 5,
      resolution: '1080p',
      cameraMove: 'dolly-in',
      settings: {},
    });
  });

  it('remembers the picks per user in this browser', async () => {
    stub('user_1');
    const first = renderApp('/generator');
    await screen.findByRole('group', { name: 'Duration' });
    await userEvent.click(radio('Square 1:1'));
    await userEvent.click(radio('5 s'));
    await waitFor(() =>
      expect(JSON.parse(localStorage.getItem('reelsmith:generator-controls:user_1') ?? '{}')).toEqual({
        aspectRatio: '1:1',
        duration: 5,
      }),
    );
    first.unmount();

    renderApp('/generator');
    await screen.findByRole('group', { name: 'Duration' });
    expect(radio('Square 1:1').checked).toBe(true);
    expect(radio('5 s').checked).toBe(true);
    cleanup();
    vi.unstubAllGlobals();

    // Another user on the same browser starts from the model's defaults.
    stub('user_2');
    renderApp('/generator');
    await screen.findByRole('group', { name: 'Duration' });
    expect(radio('Landscape 16:9').checked).toBe(true);
    expect(radio('10 s').checked).toBe(true);
  });
});
