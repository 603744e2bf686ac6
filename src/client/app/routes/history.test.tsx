import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { GenerationRecord } from '../../../shared/generations';
import { createAuthUser, json, preloadPage, renderApp, stubApi } from '../testing/render-app';

function createJob(overrides: Partial<GenerationRecord> = {}): GenerationRecord {
  return {
    id: 'job_1',
    prompt: 'Sunset over the Pacific ocean',
    status: 'completed',
    createdAt: new Date(2026, 2, 18, 12, 0).toISOString(),
    creditsUsed: 3,
    duration: 10,
    model: 'local',
    hasAudio: true,
    progress: 100,
    progressStage: null,
    errorMessage: null,
    outputVideoUrl: '/objects/videos/job_1.mp4',
    posterUrl: null,
    watchPath: null,
    expiresAt: null,
    ...overrides,
  };
}

const sunset = createJob();
const forest = createJob({
  id: 'job_2',
  prompt: 'Misty forest at dawn',
  status: 'processing',
  creditsUsed: 1,
  duration: 5,
  hasAudio: false,
  progress: 40,
  outputVideoUrl: null,
});
const city = createJob({
  id: 'job_3',
  prompt: 'City lights timelapse',
  status: 'pending',
  creditsUsed: 1,
  progress: 0,
  outputVideoUrl: null,
});
const waves = createJob({
  id: 'job_4',
  prompt: 'Ocean waves crashing on rocks',
  status: 'failed',
  creditsUsed: 1,
  progress: 0,
  errorMessage: 'The engine stopped unexpectedly',
  outputVideoUrl: null,
});

function renderHistory(jobs: () => Response) {
  const fetchMock = stubApi({
    'GET /api/auth/user': () => json(200, createAuthUser()),
    'GET /api/video-generation': jobs,
  });
  renderApp('/history');
  return fetchMock;
}

/** The list item of the job with this prompt. */
const itemOf = (prompt: string) => screen.getByText(prompt).closest('li')!;

/** The address a stubbed fetch was called with. */
function urlOf(input: RequestInfo | URL): string {
  return typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
}

// The page loads lazily: load it before the tests, so the first one does not wait on its transform under load.
preloadPage(() => import('./history'));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the /history page', () => {
  it('lists every job with its status, duration, credits and date', async () => {
    renderHistory(() => json(200, [sunset, forest, city, waves]));

    const list = await screen.findByRole('list', { name: 'Generation jobs' });
    expect(list.querySelectorAll(':scope > li')).toHaveLength(4);
    expect(screen.getByText('4 videos · 1 completed · 2 processing · 1 failed')).toBeDefined();

    const done = within(itemOf('Sunset over the Pacific ocean'));
    expect(done.getByText('Completed')).toBeDefined();
    expect(done.getByText('3 credits')).toBeDefined();
    expect(done.getByText('10s')).toBeDefined();
    expect(done.getByText(/^Mar 18, 2026 at/)).toBeDefined();
    const view = done.getByRole('link', { name: 'View Video' });
    expect(view.getAttribute('href')).toBe('/objects/videos/job_1.mp4');
    expect(view.getAttribute('target')).toBe('_blank');

    const running = within(itemOf('Misty forest at dawn'));
    expect(running.getByText('Processing')).toBeDefined();
    expect(running.getByText('1 credit')).toBeDefined();
    expect(running.getByText('5s')).toBeDefined();
    expect(
      running.getByRole('progressbar', { name: 'Progress of Misty forest at dawn' }).getAttribute('aria-valuenow'),
    ).toBe('40');
    expect(running.queryByRole('link', { name: 'View Video' })).toBeNull();

    expect(within(itemOf('City lights timelapse')).getByText('Pending')).toBeDefined();

    const broken = within(itemOf('Ocean waves crashing on rocks'));
    expect(broken.getByText('Failed')).toBeDefined();
    expect(broken.getByText('The engine stopped unexpectedly')).toBeDefined();
    expect(broken.queryByRole('link', { name: 'View Video' })).toBeNull();

    expect(screen.getByRole('link', { name: 'Back to Generator' }).getAttribute('href')).toBe('/generator');
  });

  it('shows No Videos Yet with a Create Video link when there are none', async () => {
    renderHistory(() => json(200, []));

    expect(await screen.findByRole('heading', { name: 'No Videos Yet' })).toBeDefined();
    expect(screen.getByRole('link', { name: 'Create Video' }).getAttribute('href')).toBe('/generator');
    expect(screen.getByRole('link', { name: 'Back to Generator' }).getAttribute('href')).toBe('/generator');
  });

  it('shows a spinner while the jobs load', async () => {
    const fetchMock = stubApi({ 'GET /api/auth/user': () => json(200, createAuthUser()) });
    const answer = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation((input, init) =>
      urlOf(input) === '/api/video-generation' ? new Promise<Response>(() => {}) : answer(input, init),
    );
    renderApp('/history');

    expect(await screen.findByRole('status', { name: 'Loading history' })).toBeDefined();
  });

  it('offers to try again when the jobs cannot be loaded', async () => {
    let fail = true;
    const fetchMock = renderHistory(() =>
      fail ? json(500, { code: 'internal', message: 'Something broke' }) : json(200, [sunset]),
    );
    const user = userEvent.setup();

    expect(await screen.findByRole('heading', { name: 'History unavailable' })).toBeDefined();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try Again' }));

    expect(await screen.findByText('Sunset over the Pacific ocean')).toBeDefined();
    await waitFor(() =>
      expect(fetchMock.mock.calls.filter(([input]) => urlOf(input) === '/api/video-generation')).toHaveLength(2),
    );
  });
});

describe('a status the client does not know', () => {
  it("shows as 'Unknown' in the list, with a yellow badge", async () => {
    renderHistory(() => json(200, [createJob({ id: 'job_9', prompt: 'From a newer server', status: 'archived' })]));
    const item = (await screen.findByText('From a newer server')).closest('li');
    if (!item) throw new Error('no list item');
    expect(within(item).getByText('Unknown')).toBeDefined();
  });
});
