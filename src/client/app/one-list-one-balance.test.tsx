import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { GenerationRecord } from '../../shared/generations';
import { LIVE_EVENTS_URL } from '../../shared/live-events';
import { COMPLETED_TOURS_KEY } from '../features/onboarding/tour-storage';
import {
  balance,
  callsTo,
  createAuthUser,
  json,
  preloadPage,
  renderApp,
  resetAfterTest,
  stubApi,
} from './testing/render-app';

// The pages load lazily: load them before the tests, so none waits on a transform under load.
preloadPage(() =>
  Promise.all([
    import('./routes/generator'),
    import('./routes/history'),
    import('./routes/dashboard'),
    import('./routes/media'),
    import('./routes/subscribe'),
  ]),
);
// The first-time tours are done: they would cover the pages.
beforeEach(() => localStorage.setItem(COMPLETED_TOURS_KEY, JSON.stringify(['first-time', 'generator'])));
afterEach(() => {
  resetAfterTest();
  localStorage.clear();
});

function createVideo(overrides: Partial<GenerationRecord> = {}): GenerationRecord {
  return {
    id: 'video_1',
    prompt: 'Sunset over the Pacific ocean',
    status: 'completed',
    creditsUsed: 1,
    duration: 10,
    model: 'local',
    hasAudio: false,
    outputVideoUrl: '/api/media/video_1',
    posterUrl: null,
    watchPath: null,
    createdAt: new Date(Date.now() - 3_600_000).toISOString(),
    expiresAt: new Date(Date.now() + 20 * 3_600_000).toISOString(),
    progress: 100,
    progressStage: null,
    errorMessage: null,
    ...overrides,
  };
}

const videos = [
  createVideo({ id: 'video_4', prompt: 'A fourth kite', createdAt: new Date(Date.now() - 60_000).toISOString() }),
  createVideo({
    id: 'video_3',
    prompt: 'A third kite',
    status: 'failed',
    outputVideoUrl: null,
    expiresAt: null,
    errorMessage: 'The engine stopped',
  }),
  createVideo({ id: 'video_2', prompt: 'A second kite' }),
  createVideo({ id: 'video_1', prompt: 'A first kite' }),
];

/** Every API the signed-in pages read, with the one list and the one balance. */
function stubSignedIn() {
  return stubApi({
    'GET /api/auth/user': () => json(200, createAuthUser()),
    'GET /api/user/balance': () => balance({ availableCredits: 7 }, { dailyUsed: 2, extraRemaining: 5 }),
    'GET /api/video-generation': () => json(200, videos),
    'GET /api/models': () => json(200, { models: [] }),
    'GET /api/payments/config': () => json(200, { enabled: false, publishableKey: null }),
    'POST /api/files/cleanup': () => json(200, { deleted: 0 }),
    'POST /api/credits/estimate': () => json(500, { code: 'internal', message: 'not in this test' }),
  });
}

/** The routes the client read before: three list requests and three balance answers. */
const RETIRED = [
  '/api/video-generation-jobs',
  '/api/video-generation-jobs/recent',
  '/api/user/status',
  '/api/user/generation-status',
  '/api/credits/balance',
];

/** GET requests to this path. */
const getsTo = (fetchMock: ReturnType<typeof stubApi>, path: string) =>
  callsTo(fetchMock, path).filter(([, init]) => (init?.method ?? 'GET') === 'GET');

async function goTo(label: string) {
  await userEvent.click(screen.getAllByRole('link', { name: label })[0]!);
}

describe('one list and one balance', () => {
  it('the generator, history, dashboard, media page and /subscribe make one list request and one balance request between them', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const fetchMock = stubSignedIn();
    renderApp('/generator');

    // The generator: Recent History is the latest three of the list; the credits and today's generations are the balance.
    const recent = await screen.findByRole('list', { name: 'Recent videos' });
    await waitFor(() =>
      expect(
        within(recent)
          .getAllByRole('listitem')
          .filter((item) => item.parentElement === recent),
      ).toHaveLength(3),
    );
    expect(within(recent).queryByText('A first kite')).toBeNull();
    expect((await screen.findAllByText('7 Credits')).length).toBeGreaterThan(0);

    await goTo('History');
    const history = await screen.findByRole('list', { name: 'Generation jobs' });
    expect(history.querySelectorAll(':scope > li')).toHaveLength(4);

    await goTo('Dashboard');
    expect(await screen.findByRole('heading', { name: 'Video Dashboard' })).toBeDefined();
    await waitFor(() =>
      expect(within(screen.getByRole('group', { name: 'Available Credits' })).getByText('7')).toBeDefined(),
    );

    await goTo('Media');
    expect(await screen.findByRole('heading', { name: 'My Videos' })).toBeDefined();
    expect((await screen.findAllByText('A fourth kite')).length).toBeGreaterThan(0);

    await goTo('Subscribe');
    expect(await screen.findByRole('heading', { name: 'Daily Generations' })).toBeDefined();
    expect(await screen.findByText('2/15')).toBeDefined();

    expect(getsTo(fetchMock, '/api/video-generation')).toHaveLength(1);
    expect(getsTo(fetchMock, '/api/user/balance')).toHaveLength(1);
    for (const path of RETIRED) expect(callsTo(fetchMock, path)).toHaveLength(0);
  }, 30_000);

  it("the live 'balance' event updates the badge and today's generations without another request", async () => {
    const streams: FakeEventSource[] = [];
    class FakeEventSource {
      static readonly CONNECTING = 0;
      static readonly OPEN = 1;
      static readonly CLOSED = 2;
      readyState = FakeEventSource.OPEN;
      onopen: (() => void) | null = null;
      onerror: (() => void) | null = null;
      private readonly listeners = new Map<string, ((event: { data: string }) => void)[]>();
      constructor(readonly url: string) {
        streams.push(this);
      }
      addEventListener(name: string, listener: (event: { data: string }) => void) {
        this.listeners.set(name, [...(this.listeners.get(name) ?? []), listener]);
      }
      close() {
        this.readyState = FakeEventSource.CLOSED;
      }
      emit(name: string, data: unknown) {
        for (const listener of this.listeners.get(name) ?? []) listener({ data: JSON.stringify(data) });
      }
    }
    vi.stubGlobal('EventSource', FakeEventSource);
    const fetchMock = stubSignedIn();
    renderApp('/subscribe');
    expect(await screen.findByText('2/15')).toBeDefined();

    const stream = streams.find(
      (source) => source.url === LIVE_EVENTS_URL && source.readyState === FakeEventSource.OPEN,
    );
    if (!stream) throw new Error('no live stream');
    act(() => {
      stream.onopen?.();
      stream.emit('balance', {
        status: { availableCredits: 6, isUnlimited: false, plan: 'JUST_FOR_FUN', planName: 'Credits' },
        generationStatus: {
          dailyUsed: 3,
          dailyLimit: 15,
          extraRemaining: 5,
          subscriptionStatus: 'inactive',
          canGenerate: true,
        },
      });
    });

    expect(await screen.findByText('3/15')).toBeDefined();
    // The dashboard reads the credits from the same cache.
    await goTo('Dashboard');
    expect(await screen.findByRole('heading', { name: 'Video Dashboard' })).toBeDefined();
    await waitFor(() =>
      expect(within(screen.getByRole('group', { name: 'Available Credits' })).getByText('6')).toBeDefined(),
    );
    expect(getsTo(fetchMock, '/api/user/balance')).toHaveLength(1);
  }, 30_000);
});
