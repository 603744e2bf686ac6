import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { GenerationRecord } from '../../../shared/generations';
import { CAMERA_MOVES, type ModelInfo } from '../../../shared/models';
import { dismissToast } from '../../components/ui/use-toast';
import { testVideo } from '../../../../tests/support/generation-record';
import { testModel } from '../../../../tests/support/model-info';
import { balance, createAuthUser, json, postedBodies, preloadPage, renderApp, stubApi } from '../testing/render-app';

// Variations (the picker by Generate, the group on the media page) and Extend (the dialog by Remix).
const LOCAL: ModelInfo = testModel({ durations: [2, 5, 10], cameraMoves: [...CAMERA_MOVES], isDefault: true });

const video = (overrides: Partial<GenerationRecord>): GenerationRecord =>
  testVideo({ isEconomy: false, settings: { seed: 7 }, inputs: {}, groupId: 'group-1', ...overrides });

const first = video({ id: 'v1', createdAt: new Date(Date.now() - 3000).toISOString() });
const second = video({
  id: 'v2',
  createdAt: new Date(Date.now() - 2000).toISOString(),
  status: 'processing',
  progress: 40,
  progressStage: 'Rendering',
  outputVideoUrl: null,
  expiresAt: null,
  settings: { seed: 8 },
});
const third = video({
  id: 'v3',
  prompt: 'Paper boats on a pond, third',
  createdAt: new Date(Date.now() - 1000).toISOString(),
  outputVideoUrl: '/api/media/v3',
  settings: { seed: 9 },
});

function stub(videos: GenerationRecord[], extra: Parameters<typeof stubApi>[0] = {}) {
  return stubApi({
    'GET /api/auth/user': () => json(200, createAuthUser()),
    'GET /api/user/balance': () => balance({ availableCredits: 20, isUnlimited: false, plan: 'JUST_FOR_FUN' }),
    'GET /api/models': () => json(200, { models: [LOCAL] }),
    'GET /api/video-generation': () => json(200, videos),
    'POST /api/files/cleanup': () => json(200, { deleted: 0 }),
    ...extra,
  });
}

preloadPage(() => import('./media'));
preloadPage(() => import('./generator'));

afterEach(() => {
  cleanup();
  dismissToast();
  sessionStorage.clear();
  vi.unstubAllGlobals();
});

describe('variations', () => {
  it('are picked by Generate, priced times N, and sent as one request', async () => {
    const created = { ...video({ id: 'n1', status: 'pending' }), group: [video({ id: 'n1', status: 'pending' })] };
    const fetchMock = stub([], { 'POST /api/video-generation': () => json(201, created) });
    const user = userEvent.setup();
    renderApp('/generator');
    await user.type(await screen.findByLabelText('Video Description', {}, { timeout: 10_000 }), 'Paper boats');
    await user.click(screen.getByRole('radio', { name: '3 variations' }));
    expect(screen.getByRole<HTMLInputElement>('radio', { name: '3 variations' }).checked).toBe(true);
    expect(await screen.findByText('3 × 1 credit = 3 credits')).toBeDefined();
    expect(screen.getByText('Cost of 3 videos')).toBeDefined();
    const generate = await screen.findByRole('button', { name: 'Generate 3 Videos' });
    await waitFor(() => expect(generate.hasAttribute('disabled')).toBe(false));
    await user.click(generate);
    await waitFor(() => expect(postedBodies(fetchMock, '/api/video-generation')).toHaveLength(1));
    expect(postedBodies(fetchMock, '/api/video-generation')[0]).toMatchObject({
      description: 'Paper boats',
      variations: 3,
    });
  });

  it('show together on the media page with live progress each, and Pick this one puts one in the player', async () => {
    stub([third, second, first]);
    const user = userEvent.setup();
    renderApp('/media?video=v1');
    const group = await screen.findByRole('region', { name: 'Variations (3)' }, { timeout: 10_000 });
    expect(within(group).getByText('2 of 3 ready')).toBeDefined();
    const items = within(group).getAllByRole('listitem');
    expect(items.map((item) => item.getAttribute('aria-label'))).toEqual(['Variation 1', 'Variation 2', 'Variation 3']);
    expect(within(items[0] as HTMLElement).getByText('In the player')).toBeDefined();
    expect(within(items[1] as HTMLElement).getByRole('progressbar', { name: 'Progress of Variation 2' })).toBeDefined();
    expect(within(items[1] as HTMLElement).getByText('40%')).toBeDefined();
    await user.click(within(items[2] as HTMLElement).getByRole('button', { name: 'Pick this one: Variation 3' }));
    const player = screen.getByRole('region', { name: 'Player' });
    expect(await within(player).findByRole('heading', { name: 'Paper boats on a pond, third' })).toBeDefined();
    expect(await within(player).findByRole('button', { name: /Extend/ })).toBeDefined();
    expect(within(player).getByRole('button', { name: /Remix/ })).toBeDefined();
  });
});

const FAL_VEO: ModelInfo = {
  ...LOCAL,
  id: 'fal-veo3',
  engine: 'fal',
  name: 'Veo 3 (fal.ai)',
  inputs: ['text', 'image'],
  durations: [4, 6, 8],
  aspectRatios: ['16:9', '9:16'],
  credits: 4,
  economyCredits: 2,
  cameraMoves: [],
  isDefault: false,
  isPreview: false,
};
// Not offered for comparing: it cannot render the local engine's default 16:9.
const SQUARE_ONLY: ModelInfo = { ...FAL_VEO, id: 'square', name: 'Square only', aspectRatios: ['1:1'] };

describe('compare with another model', () => {
  it('offers the models that take the request, prices the two together, and sends one request', async () => {
    const created = { ...video({ id: 'n1', status: 'pending' }), group: [video({ id: 'n1', status: 'pending' })] };
    const fetchMock = stub([], {
      'GET /api/models': () => json(200, { models: [LOCAL, FAL_VEO, SQUARE_ONLY] }),
      'POST /api/video-generation': () => json(201, created),
    });
    const user = userEvent.setup();
    renderApp('/generator');
    await user.type(await screen.findByLabelText('Video Description', {}, { timeout: 10_000 }), 'Paper boats');
    await user.click(screen.getByRole('radio', { name: '3 variations' }));
    const select = await screen.findByLabelText<HTMLSelectElement>('Compare with another model');
    expect(Array.from(select.options).map((o) => o.text)).toEqual(['No, one model', 'Veo 3 (fal.ai)']);
    await user.selectOptions(select, 'fal-veo3');
    // Either-or: comparing makes one video on each model, so the variations go back to 1.
    expect(screen.getByRole<HTMLInputElement>('radio', { name: '1 video' }).checked).toBe(true);
    expect(screen.getByTestId('compare-price').textContent).toBe(
      'Local preview engine 1 credit + Veo 3 (fal.ai) 4 credits = 5 credits',
    );
    expect(screen.getByText('Cost of 2 videos')).toBeDefined();
    expect(screen.getByText('5 credits', { selector: '.text-lg' })).toBeDefined();
    const generate = await screen.findByRole('button', { name: 'Generate 2 Videos' });
    await waitFor(() => expect(generate.hasAttribute('disabled')).toBe(false));
    await user.click(generate);
    await waitFor(() => expect(postedBodies(fetchMock, '/api/video-generation')).toHaveLength(1));
    expect(postedBodies(fetchMock, '/api/video-generation')[0]).toMatchObject({
      description: 'Paper boats',
      variations: 1,
      compareModel: 'fal-veo3',
    });
  });

  it('shows the two side by side on the media page, each with its model named', async () => {
    const onFal = video({ id: 'v2', model: 'fal-veo3', createdAt: new Date(Date.now() - 2000).toISOString() });
    stub([onFal, first], { 'GET /api/models': () => json(200, { models: [LOCAL, FAL_VEO] }) });
    renderApp('/media?video=v1');
    const group = await screen.findByRole('region', { name: 'Variations (2)' }, { timeout: 10_000 });
    await waitFor(() =>
      expect(
        within(group)
          .getAllByTestId('variation-model')
          .map((el) => el.textContent),
      ).toEqual(['Local preview engine', 'Veo 3 (fal.ai)']),
    );
  });
});

describe('Extend', () => {
  it('asks for the optional prompt, length and crossfade, shows the new length and price, and sends them', async () => {
    const single = video({ groupId: null });
    const extended = video({ id: 'x1', status: 'pending', parentId: 'v1', groupId: null, outputVideoUrl: null });
    const fetchMock = stub([single], {
      'POST /api/video-generation/v1/extend': () => json(201, { ...extended, group: [extended] }),
    });
    const user = userEvent.setup();
    renderApp('/media?video=v1');
    const player = await screen.findByRole('region', { name: 'Player' }, { timeout: 10_000 });
    await user.click(await within(player).findByRole('button', { name: /Extend/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('heading', { name: 'Extend this video' })).toBeDefined();
    expect(within(dialog).getByTestId('extend-length').textContent).toBe('about 10 s');
    expect(within(dialog).getByTestId('extend-cost').textContent).toBe('1 credit');
    await user.type(within(dialog).getByLabelText('What happens next (optional)'), 'The boats sail away');
    await user.selectOptions(within(dialog).getByLabelText('Add'), '10');
    await user.click(within(dialog).getByRole('radio', { name: '0.5 s' }));
    expect(within(dialog).getByTestId('extend-length').textContent).toBe('about 14.5 s');
    await user.click(within(dialog).getByRole('button', { name: /Extend Video/ }));
    await waitFor(() => expect(postedBodies(fetchMock, '/api/video-generation/v1/extend')).toHaveLength(1));
    expect(postedBodies(fetchMock, '/api/video-generation/v1/extend')[0]).toEqual({
      prompt: 'The boats sail away',
      duration: 10,
      crossfade: 0.5,
    });
    await waitFor(() => expect(window.location.search).toBe('?video=x1'));
  });
});
