import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { GenerationRecord } from '../../../shared/generations';
import { dismissToast } from '../../components/ui/use-toast';
import { createAuthUser, json, renderApp, stubApi } from '../testing/render-app';

// Only Date is faked (timers stay real for polling and user events).
const now = new Date(2026, 2, 18, 12, 0).getTime();
const minutesAgo = (minutes: number) => new Date(now - minutes * 60_000).toISOString();

function createVideo(overrides: Partial<GenerationRecord> = {}): GenerationRecord {
  return {
    id: 'video_1',
    prompt: 'Sunset over the Pacific ocean',
    status: 'completed',
    creditsUsed: 3,
    duration: 10,
    model: 'veo3',
    hasAudio: true,
    outputVideoUrl: '/objects/videos/video_1.mp4',
    posterUrl: '/objects/videos/video_1.jpg',
    watchPath: null,
    createdAt: minutesAgo(2),
    expiresAt: new Date(now + 23 * 3_600_000).toISOString(),
    progress: 100,
    progressStage: 'Completed',
    errorMessage: null,
    ...overrides,
  };
}

const city = createVideo({
  id: 'video_5',
  prompt: 'City lights timelapse',
  status: 'pending',
  outputVideoUrl: null,
  posterUrl: null,
  createdAt: minutesAgo(1),
  expiresAt: null,
  progress: 0,
  progressStage: 'Waiting in queue',
});
const forest = createVideo({
  id: 'video_4',
  prompt: 'Misty forest at dawn',
  status: 'processing',
  creditsUsed: 1,
  outputVideoUrl: null,
  posterUrl: null,
  createdAt: minutesAgo(1),
  expiresAt: null,
  progress: 40,
  progressStage: null,
});
const sunset = createVideo();
const mountains = createVideo({
  id: 'video_2',
  prompt: 'Snowy mountains at golden hour',
  creditsUsed: 1,
  model: 'local',
  outputVideoUrl: '/objects/videos/video_2.mp4',
  posterUrl: '/objects/videos/video_2.jpg',
  createdAt: minutesAgo(90),
});
const waves = createVideo({
  id: 'video_3',
  prompt: 'Ocean waves crashing on rocks',
  status: 'failed',
  outputVideoUrl: null,
  posterUrl: null,
  createdAt: minutesAgo(120),
  expiresAt: null,
  errorMessage: 'The engine stopped unexpectedly',
});

/** The address a stubbed fetch was called with. */
function urlOf(input: RequestInfo | URL): string {
  return typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
}

async function renderMediaPage(
  videos: GenerationRecord[],
  routes: Parameters<typeof stubApi>[0] = {},
  path = '/media',
) {
  const fetchMock = stubApi({
    'GET /api/auth/user': () => json(200, createAuthUser()),
    'GET /api/video-generation': () => json(200, videos),
    'POST /api/files/cleanup': () => json(200, { removed: 0 }),
    ...routes,
  });
  const user = userEvent.setup();
  renderApp(path);
  // The page's code loads on demand: the first import in a busy run can take longer than findBy's 1 s.
  await screen.findByRole('heading', { name: 'My Videos', level: 1 }, { timeout: 10_000 });
  return { fetchMock, user };
}

const player = () => screen.getByRole('region', { name: 'Player' });
/** The toasts' region, which mounts with the first toast. */
const toasts = () => screen.findByRole('region', { name: /Notifications/ });

function calledWith(fetchMock: ReturnType<typeof stubApi>, method: string, path: string): boolean {
  return fetchMock.mock.calls.some(([input, init]) => (init?.method ?? 'GET') === method && urlOf(input) === path);
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(now);
});

afterEach(() => {
  vi.useRealTimers();
  cleanup();
  dismissToast();
  vi.unstubAllGlobals();
});

describe('the /media page', () => {
  it('counts the videos in the tabs and plays the newest completed one, announcing it when it is new', async () => {
    const { fetchMock } = await renderMediaPage([city, forest, sunset, mountains, waves]);

    expect(await screen.findByRole('tab', { name: 'Completed (2)' })).toBeDefined();
    expect(screen.getByRole('tab', { name: 'Processing (2)' })).toBeDefined();
    expect(screen.getByRole('tab', { name: 'Completed (2)' }).getAttribute('aria-selected')).toBe('true');

    expect(within(player()).getByRole('heading', { name: 'Sunset over the Pacific ocean' })).toBeDefined();
    expect(within(player()).getByLabelText('Video player').getAttribute('src')).toBe('/objects/videos/video_1.mp4');
    expect(within(player()).getByText('10 seconds')).toBeDefined();
    expect(within(player()).getByText('3 credits')).toBeDefined();
    expect(within(player()).getByText('Veo 3')).toBeDefined();
    expect(within(player()).getByText('Deletes in 23h 0m')).toBeDefined();
    expect(
      within(player())
        .getByRole('button', { name: /Download/ })
        .hasAttribute('disabled'),
    ).toBe(false);
    expect(within(player()).getByRole('button', { name: /Share/ }).hasAttribute('disabled')).toBe(false);

    expect(await within(await toasts()).findByText('Video Ready!')).toBeDefined();

    // The completed items show their posters, lazily loaded.
    const completed = screen.getByRole('list', { name: 'Completed videos' });
    const posters = completed.querySelectorAll('img');
    expect([...posters].map((img) => img.getAttribute('src'))).toEqual([
      '/objects/videos/video_1.jpg',
      '/objects/videos/video_2.jpg',
    ]);
    expect(posters[0]?.getAttribute('loading')).toBe('lazy');

    // The failed video is in its own section, with its error.
    const failed = screen.getByRole('list', { name: 'Failed videos' });
    expect(within(failed).getByText('The engine stopped unexpectedly')).toBeDefined();

    await waitFor(() => expect(calledWith(fetchMock, 'POST', '/api/files/cleanup')).toBe(true));
  });

  it('does not announce a completed video older than 5 minutes', async () => {
    await renderMediaPage([mountains]);

    expect(await within(player()).findByRole('heading', { name: 'Snowy mountains at golden hour' })).toBeDefined();
    expect(within(player()).getByText('Local preview')).toBeDefined();
    expect(screen.queryByText('Video Ready!')).toBeNull();
  });

  it('shows the progress of unfinished videos, with Processing... when the stage is unknown', async () => {
    const { user } = await renderMediaPage([city, forest, sunset]);

    await user.click(await screen.findByRole('tab', { name: 'Processing (2)' }));
    const list = screen.getByRole('list', { name: 'Processing videos' });
    expect(
      within(list).getByRole('progressbar', { name: 'Progress of Misty forest at dawn' }).getAttribute('aria-valuenow'),
    ).toBe('40');
    expect(within(list).getByText('Processing...')).toBeDefined();
    expect(within(list).getByText('40%')).toBeDefined();
    expect(within(list).getByText('Waiting in queue')).toBeDefined();

    // Selecting one shows it in the player, where nothing can be downloaded or shared yet.
    await user.click(within(list).getByRole('button', { name: 'Misty forest at dawn' }));
    expect(within(player()).getByRole('heading', { name: 'Misty forest at dawn' })).toBeDefined();
    expect(within(player()).getByText('Processing')).toBeDefined();
    expect(
      within(player())
        .getByRole('button', { name: /Download/ })
        .hasAttribute('disabled'),
    ).toBe(true);
    expect(within(player()).getByRole('button', { name: /Share/ }).hasAttribute('disabled')).toBe(true);
  });

  it('follows the video just generated: its place in the queue and an estimate, then it plays with Video Ready!', async () => {
    // Without a live stream (none in this test browser) the page falls back to polling every 5 s.
    const queued = createVideo({
      id: 'video_9',
      prompt: 'A paper lantern over the harbour',
      status: 'pending',
      outputVideoUrl: null,
      posterUrl: null,
      createdAt: minutesAgo(0),
      progress: 0,
      progressStage: 'Waiting in queue',
      queuePosition: 2,
      estimatedStartAt: new Date(now + 3 * 60_000).toISOString(),
    });
    let videos = [queued, sunset];
    await renderMediaPage([], { 'GET /api/video-generation': () => json(200, videos) }, '/media?video=video_9');

    expect(await within(player()).findByRole('heading', { name: 'A paper lantern over the harbour' })).toBeDefined();
    expect(within(player()).getByText('Position 2 in the queue')).toBeDefined();
    expect(within(player()).getByText(/Estimated start: in about 3 minutes\./)).toBeDefined();
    expect(screen.getByRole('tab', { name: 'Processing (1)' }).getAttribute('aria-selected')).toBe('true');

    videos = [
      {
        ...queued,
        status: 'completed',
        progress: 100,
        outputVideoUrl: '/objects/videos/video_9.mp4',
        queuePosition: null,
      },
      sunset,
    ];
    expect(await within(await toasts()).findByText('Video Ready!')).toBeDefined();
    expect(within(player()).getByRole('heading', { name: 'A paper lantern over the harbour' })).toBeDefined();
    expect(player().querySelector('video')?.getAttribute('src')).toBe('/objects/videos/video_9.mp4');
  }, 15_000);

  it('says so when the address names a video that is not here, and plays a picked one after', async () => {
    const { user } = await renderMediaPage([sunset, city], {}, '/media?video=video_gone');

    expect(await within(player()).findByRole('heading', { name: 'This video is not here' })).toBeDefined();
    expect(within(player()).getByText(/It has expired \(videos are kept 24 hours\), was deleted/)).toBeDefined();
    // The list is still there, and picking a video plays it in the notice's place.
    await user.click(screen.getByRole('button', { name: /Sunset over the Pacific ocean/ }));
    expect(await within(player()).findByRole('heading', { name: 'Sunset over the Pacific ocean' })).toBeDefined();
    expect(within(player()).queryByText('This video is not here')).toBeNull();
  });

  it('says the video has expired when the address names one past its 24 hours', async () => {
    const expired = createVideo({
      id: 'video_old',
      prompt: 'An old harbour at night',
      createdAt: minutesAgo(25 * 60),
      expiresAt: minutesAgo(60),
    });
    await renderMediaPage([sunset, expired], {}, '/media?video=video_old');

    expect(await within(player()).findByRole('heading', { name: 'This video has expired' })).toBeDefined();
    expect(within(player()).queryByRole('heading', { name: 'An old harbour at night' })).toBeNull();
  });

  it('opens on the Processing tab when nothing has finished yet', async () => {
    await renderMediaPage([forest]);

    expect(await screen.findByRole('tab', { name: 'Processing (1)' })).toBeDefined();
    await waitFor(() =>
      expect(screen.getByRole('tab', { name: 'Processing (1)' }).getAttribute('aria-selected')).toBe('true'),
    );
    expect(screen.getByRole('progressbar', { name: 'Progress of Misty forest at dawn' })).toBeDefined();
    expect(within(player()).getByText('No video selected')).toBeDefined();
  });

  it('shows the empty states with a way to create a video', async () => {
    const { user } = await renderMediaPage([]);

    expect(await screen.findByText('No completed videos yet')).toBeDefined();
    expect(screen.getByRole('tab', { name: 'Completed (0)' })).toBeDefined();
    await user.click(screen.getByRole('tab', { name: 'Processing (0)' }));
    expect(await screen.findByText('No videos processing')).toBeDefined();
    const list = screen.getByRole('region', { name: 'Your videos' });
    expect(
      within(list)
        .getByRole('link', { name: /Create Video/ })
        .getAttribute('href'),
    ).toBe('/generator');
  });

  it('links to the generator, the history and the credits pages and explains storage and formats', async () => {
    await renderMediaPage([]);

    const links = screen.getByRole('navigation', { name: 'Media links' });
    expect(within(links).getByRole('link', { name: 'Create Video' }).getAttribute('href')).toBe('/generator');
    expect(within(links).getByRole('link', { name: 'History' }).getAttribute('href')).toBe('/history');
    expect(within(links).getByRole('link', { name: 'Credits' }).getAttribute('href')).toBe('/credits');
    const info = screen.getByRole('region', { name: 'About your videos' });
    expect(within(info).getByText('Stored for 24 hours')).toBeDefined();
    expect(within(info).getByText('How to download')).toBeDefined();
    for (const format of ['MP4 (H.264, H.265)', 'WebM (VP8, VP9)', 'OGG (Theora)']) {
      expect(
        within(info).getByText((_, element) => element?.tagName === 'LI' && element.textContent === format),
      ).toBeDefined();
    }
  });

  it('copies the link when the browser cannot share', async () => {
    const { user } = await renderMediaPage([mountains]);

    await user.click(await within(player()).findByRole('button', { name: /Share/ }));
    expect(await within(await toasts()).findByText('Link Copied')).toBeDefined();
    expect(within(await toasts()).getByText('Video URL copied to clipboard.')).toBeDefined();
    expect(await navigator.clipboard.readText()).toBe(`${window.location.origin}/objects/videos/video_2.mp4`);
  });

  it("shares the video's watch page when it has one", async () => {
    const expiresAt = new Date(Date.now() + 5 * 3_600_000 + 60_000).toISOString();
    const { user } = await renderMediaPage([{ ...mountains, watchPath: '/watch/tok_mountains', expiresAt }]);

    await user.click(await within(player()).findByRole('button', { name: /Share/ }));
    expect(await within(await toasts()).findByText('Link Copied')).toBeDefined();
    // The Share button says when the link stops working (the video's own deletion); the toast keeps the spec's words.
    expect(within(await toasts()).getByText('Video URL copied to clipboard.')).toBeDefined();
    expect(within(player()).getByRole('button', { name: /Share/ }).getAttribute('title')).toMatch(
      /^Copy the video link\. The link works until .+ \(5h \dm from now\), when the video is deleted\.$/,
    );
    expect(await navigator.clipboard.readText()).toBe(`${window.location.origin}/watch/tok_mountains`);
  });

  it('offers Report, naming the video by its watch page, or by its id when it has none', async () => {
    await renderMediaPage([{ ...mountains, watchPath: '/watch/tok_mountains' }]);

    const report = await within(player()).findByRole('link', { name: /Report/ });
    const watchUrl = `${window.location.origin}/watch/tok_mountains`;
    expect(report.getAttribute('href')).toBe(`/report?video=${encodeURIComponent(watchUrl)}`);
    cleanup();

    await renderMediaPage([mountains]);
    const byId = await within(player()).findByRole('link', { name: /Report/ });
    expect(byId.getAttribute('href')).toBe('/report?video=video_2');
  });

  it('deletes the selected video after confirmation and clears the selection', async () => {
    let videos = [sunset, mountains];
    const { fetchMock, user } = await renderMediaPage([], {
      'GET /api/video-generation': () => json(200, videos),
      'DELETE /api/video-generation/video_1': () => {
        videos = [mountains];
        return json(200, { message: 'Video deleted' });
      },
    });

    await user.click(await within(player()).findByRole('button', { name: /Delete/ }));
    const dialog = await screen.findByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: /Delete/ }));

    expect(await within(await toasts()).findByText('Video Deleted')).toBeDefined();
    expect(calledWith(fetchMock, 'DELETE', '/api/video-generation/video_1')).toBe(true);
    await waitFor(() => expect(screen.getByRole('tab', { name: 'Completed (1)' })).toBeDefined());
    expect(within(player()).getByText('No video selected')).toBeDefined();
  });

  it('says so when the delete fails', async () => {
    const { user } = await renderMediaPage([mountains], {
      'DELETE /api/video-generation/video_2': () => json(500, { code: 'internal', message: 'Boom' }),
    });

    await user.click(await within(player()).findByRole('button', { name: /Delete/ }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: /Delete/ }));

    expect(await within(await toasts()).findByText('Delete Failed')).toBeDefined();
    expect(within(await toasts()).getByText('Unable to delete the video. Please try again.')).toBeDefined();
    expect(within(player()).getByRole('heading', { name: 'Snowy mountains at golden hour' })).toBeDefined();
  });

  it("shows a film of the user's videos as a film, with no Remix (it has no prompt or model to remix)", async () => {
    const film = createVideo({ id: 'film_1', prompt: 'The lighthouse', model: 'film', creditsUsed: 0 });
    await renderMediaPage(
      [film, sunset],
      { 'GET /api/models': () => json(200, { models: [] }) },
      '/media?video=film_1',
    );
    await waitFor(() => expect(within(player()).getByRole('heading', { name: 'The lighthouse' })).toBeDefined());
    const actions = within(player()).getByRole('group', { name: 'Make another video from this one' });
    expect(within(actions).queryByRole('button', { name: /Remix/ })).toBeNull();
    expect(within(player()).getByText('Film of your videos')).toBeDefined();
  });
});
