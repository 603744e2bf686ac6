import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { GenerationRecord } from '../../../shared/generations';
import { dismissToast } from '../../components/ui/use-toast';
import {
  balance,
  createAuthUser,
  json,
  postedBodies,
  preloadPage,
  renderApp,
  signedOut,
  stubApi,
} from '../testing/render-app';

// The operator's VIDEO_RETENTION_HOURS=1 and KEEP_VIDEOS_FOR=subscribers, as the server writes them
// into the page (src/server/http/client-files.ts): every screen says 1 hour, none says 24.
const now = new Date(2026, 2, 18, 12, 0).getTime();

function setMeta(name: string, content: string) {
  const meta = document.createElement('meta');
  meta.name = name;
  meta.content = content;
  meta.dataset.test = 'retention';
  document.head.append(meta);
}

function video(overrides: Partial<GenerationRecord> = {}): GenerationRecord {
  return {
    id: '6f1c2d4e-8a9b-4c3d-9e8f-0a1b2c3d4e5f',
    prompt: 'Sunset over the Pacific ocean',
    status: 'completed',
    creditsUsed: 1,
    duration: 10,
    model: 'local',
    hasAudio: false,
    outputVideoUrl: '/objects/videos/video_1.mp4',
    posterUrl: '/objects/videos/video_1.jpg',
    watchPath: null,
    createdAt: new Date(now - 10 * 60_000).toISOString(),
    expiresAt: new Date(now + 50 * 60_000).toISOString(),
    kept: false,
    progress: 100,
    progressStage: 'Completed',
    errorMessage: null,
    version: 3,
    ...overrides,
  };
}

const noTwentyFour = () => expect(document.body.textContent).not.toMatch(/24[ -]hour/i);

preloadPage(() => import('./media'));

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(now);
  setMeta('reelsmith:video-retention-hours', '1');
  setMeta('reelsmith:keep-videos-for', 'subscribers');
});

afterEach(() => {
  vi.useRealTimers();
  cleanup();
  dismissToast();
  vi.unstubAllGlobals();
  document.head.querySelectorAll('meta[data-test="retention"]').forEach((meta) => meta.remove());
});

describe('VIDEO_RETENTION_HOURS=1 on every screen', () => {
  it('the dashboard: the storage notice says 1 hour and the countdown counts to the video’s expiry', async () => {
    stubApi({
      'GET /api/auth/user': () => json(200, createAuthUser()),
      'GET /api/user/balance': () => balance({ availableCredits: 4 }),
      'GET /api/video-generation': () => json(200, [video()]),
    });
    renderApp('/dashboard');
    await screen.findByRole('heading', { name: 'Video Dashboard' }, { timeout: 10_000 });

    const notice = screen.getByRole('complementary', { name: 'Video storage' });
    expect(within(notice).getByText('Important: 1-Hour Video Storage')).toBeDefined();
    expect(
      within(notice).getByText(
        'Videos are stored for 1 hour and then deleted automatically. Download the ones you want to keep.',
      ),
    ).toBeDefined();
    expect(await screen.findByText('Deletes in 50m')).toBeDefined();
    noTwentyFour();
  });

  it('the media page: the info panel says 1 hour, and a subscriber keeps a video (no countdown then)', async () => {
    const kept = video({ kept: true, expiresAt: null, version: 4 });
    const fetchMock = stubApi({
      'GET /api/auth/user': () => json(200, createAuthUser({ subscriptionStatus: 'active' })),
      'GET /api/video-generation': () => json(200, [video()]),
      'POST /api/files/cleanup': () => json(200, { removed: 0 }),
      [`POST /api/video-generation/${kept.id}/keep`]: () => json(200, kept),
    });
    const user = userEvent.setup();
    renderApp('/media');
    await screen.findByRole('heading', { name: 'My Videos', level: 1 }, { timeout: 10_000 });

    const info = screen.getByRole('region', { name: 'About your videos' });
    expect(within(info).getByText('Stored for 1 hour')).toBeDefined();
    expect(within(info).getByText(/Videos are deleted automatically 1 hour after they are made\./)).toBeDefined();
    const player = screen.getByRole('region', { name: 'Player' });
    expect(await within(player).findByText('Deletes in 50m')).toBeDefined();
    noTwentyFour();

    await user.click(within(player).getByRole('button', { name: 'Keep' }));
    await waitFor(() =>
      expect(postedBodies(fetchMock, `/api/video-generation/${kept.id}/keep`)).toEqual([{ keep: true }]),
    );
    expect(await within(player).findByRole('button', { name: 'Kept', pressed: true })).toBeDefined();
    expect(within(player).queryByText(/Deletes in/)).toBeNull();
  });

  it('offers no Keep to a user KEEP_VIDEOS_FOR does not name', async () => {
    stubApi({
      'GET /api/auth/user': () => json(200, createAuthUser({ subscriptionStatus: 'inactive' })),
      'GET /api/video-generation': () => json(200, [video()]),
      'POST /api/files/cleanup': () => json(200, { removed: 0 }),
    });
    renderApp('/media');
    const player = await screen.findByRole('region', { name: 'Player' }, { timeout: 10_000 });
    expect(await within(player).findByText('Deletes in 50m')).toBeDefined();
    expect(within(player).queryByRole('button', { name: 'Keep' })).toBeNull();
  });

  it('the media page, for an address naming an expired video: deleted 1 hour after they are made', async () => {
    const expired = video({ expiresAt: new Date(now - 5 * 60_000).toISOString() });
    stubApi({
      'GET /api/auth/user': () => json(200, createAuthUser()),
      'GET /api/video-generation': () => json(200, [expired]),
      'POST /api/files/cleanup': () => json(200, { removed: 0 }),
    });
    renderApp(`/media?video=${expired.id}`);
    const player = await screen.findByRole('region', { name: 'Player' }, { timeout: 10_000 });
    expect(await within(player).findByText(/Videos are deleted 1 hour after they are made\./)).toBeDefined();
    noTwentyFour();
  });

  it('the generator: the warning card and its folded summary say 1 hour', async () => {
    stubApi({
      'GET /api/auth/user': () => json(200, createAuthUser()),
      'GET /api/user/balance': () => balance({ availableCredits: 4 }),
      'GET /api/models': () => json(200, { models: [] }),
      'GET /api/video-generation': () => json(200, []),
      'POST /api/files/cleanup': () => json(200, { deleted: 0 }),
    });
    renderApp('/generator');
    expect(await screen.findByText('Important: 1-Hour Video Storage', {}, { timeout: 10_000 })).toBeDefined();
    expect(
      screen.getByText(
        'Your videos and uploads are deleted automatically 1 hour after they are made. Download the videos you want to keep.',
      ),
    ).toBeDefined();
    expect(screen.getAllByText('Kept 1 hour').length).toBeGreaterThan(0);
    noTwentyFour();
  });

  it('the landing page says 1 hour in the hero and the footer', async () => {
    stubApi({
      'GET /api/auth/user': signedOut,
      'GET /api/auth/providers': () => json(200, { oidc: null, google: false, passwordReset: false }),
    });
    renderApp('/');
    expect(await screen.findByRole('link', { name: 'GET STARTED' }, { timeout: 10_000 })).toBeDefined();
    expect(screen.getByText('Videos are kept for 1 hour, so download the ones you love.')).toBeDefined();
    expect(
      screen.getByText(
        'Generated videos are stored for 1 hour and then deleted automatically. Download the ones you want to keep.',
      ),
    ).toBeDefined();
    noTwentyFour();
  });
});
