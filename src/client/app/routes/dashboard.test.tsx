import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { UserStatus } from '../../../shared/auth';
import type { GenerationRecord } from '../../../shared/generations';
import { dismissToast } from '../../components/ui/use-toast';
import { balance, createAuthUser, json, renderApp, stubApi } from '../testing/render-app';

// Only Date is faked (timers stay real for polling and user events): mid-March in local time.
const now = new Date(2026, 2, 18, 12, 0).getTime();
const minutesAgo = (minutes: number) => new Date(now - minutes * 60_000).toISOString();
const twoMonthsAgo = new Date(2026, 0, 15, 12).toISOString();

function createVideo(overrides: Partial<GenerationRecord> = {}): GenerationRecord {
  return {
    id: 'video_1',
    prompt: 'Sunset over the Pacific ocean',
    status: 'completed',
    creditsUsed: 3,
    duration: 10,
    model: 'local',
    hasAudio: true,
    outputVideoUrl: '/objects/videos/video_1.mp4',
    posterUrl: '/objects/videos/video_1.jpg',
    watchPath: null,
    createdAt: minutesAgo(60),
    expiresAt: new Date(now + 23 * 3_600_000).toISOString(),
    progress: 100,
    progressStage: 'Completed',
    errorMessage: null,
    ...overrides,
  };
}

const sunset = createVideo();
const forest = createVideo({
  id: 'video_2',
  prompt: 'Misty forest at dawn',
  status: 'processing',
  creditsUsed: 1,
  outputVideoUrl: null,
  posterUrl: null,
  createdAt: minutesAgo(5),
  progress: 40,
  progressStage: 'Rendering frames',
});
const city = createVideo({
  id: 'video_3',
  prompt: 'City lights timelapse',
  status: 'pending',
  creditsUsed: 1,
  outputVideoUrl: null,
  posterUrl: null,
  createdAt: minutesAgo(2),
  progress: 0,
  progressStage: 'Waiting in queue',
});
const waves = createVideo({
  id: 'video_4',
  prompt: 'Ocean waves crashing on rocks',
  status: 'failed',
  outputVideoUrl: null,
  posterUrl: null,
  createdAt: twoMonthsAgo,
  expiresAt: null,
  errorMessage: 'The engine stopped unexpectedly',
});

const credits =
  (overrides: Partial<UserStatus> = {}) =>
  () =>
    balance({ availableCredits: 42, isUnlimited: false, plan: 'JUST_FOR_FUN', ...overrides });

async function renderDashboard(videos: GenerationRecord[], status = credits()) {
  const fetchMock = stubApi({
    'GET /api/auth/user': () => json(200, createAuthUser()),
    'GET /api/user/balance': status,
    'GET /api/video-generation': () => json(200, videos),
  });
  const user = userEvent.setup();
  renderApp('/dashboard');
  await screen.findByRole('heading', { name: 'Video Dashboard' });
  return { fetchMock, user };
}

/** The prompts of the gallery's items, in the order shown. */
function shownPrompts(): string[] {
  const list = screen.queryByRole('list', { name: 'Videos' });
  if (!list) return [];
  return within(list)
    .getAllByRole('heading', { level: 3 })
    .map((heading) => heading.textContent ?? '');
}

const stat = (label: string) => screen.getByRole('group', { name: label });

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

describe('the /dashboard page', () => {
  it('counts the videos in the stat cards and shows the available credits', async () => {
    await renderDashboard([sunset, forest, city, waves]);

    await waitFor(() => expect(within(stat('Total Videos')).getByText('4')).toBeDefined());
    expect(within(stat('Processing')).getByText('2')).toBeDefined();
    expect(within(stat('This Month')).getByText('3')).toBeDefined();
    expect(await within(stat('Available Credits')).findByText('42')).toBeDefined();
    expect(shownPrompts()).toEqual([
      'City lights timelapse',
      'Misty forest at dawn',
      'Sunset over the Pacific ocean',
      'Ocean waves crashing on rocks',
    ]);
    expect(screen.getByRole('link', { name: /Buy Credits/ }).getAttribute('href')).toBe('/credits');
    expect(screen.getByRole('link', { name: /My Videos/ }).getAttribute('href')).toBe('/media');
    expect(screen.getByText('Important: 24-Hour Video Storage')).toBeDefined();
    expect(
      screen.getByRole('progressbar', { name: 'Progress of Misty forest at dawn' }).getAttribute('aria-valuenow'),
    ).toBe('40');
    expect(screen.getByText('The engine stopped unexpectedly')).toBeDefined();
  });

  it('shows ∞ Unlimited for an unlimited account', async () => {
    await renderDashboard([sunset], credits({ isUnlimited: true, availableCredits: 0 }));
    expect(await within(stat('Available Credits')).findByText('∞ Unlimited')).toBeDefined();
  });

  it('searches the prompts for a substring in any case', async () => {
    const { user } = await renderDashboard([sunset, forest, city, waves]);
    await screen.findByRole('list', { name: 'Videos' });

    await user.type(screen.getByPlaceholderText('Search videos...'), 'OCEAN');
    expect(shownPrompts()).toEqual(['Sunset over the Pacific ocean', 'Ocean waves crashing on rocks']);
    expect(screen.getByText('2 of 4')).toBeDefined();

    await user.clear(screen.getByPlaceholderText('Search videos...'));
    await user.type(screen.getByPlaceholderText('Search videos...'), 'fOrEsT at');
    expect(shownPrompts()).toEqual(['Misty forest at dawn']);
  });

  it('keeps only the chosen status', async () => {
    const { user } = await renderDashboard([sunset, forest, city, waves]);
    await screen.findByRole('list', { name: 'Videos' });

    await user.click(screen.getByRole('combobox', { name: 'Filter by status' }));
    await user.click(await screen.findByRole('option', { name: 'Failed' }));
    expect(shownPrompts()).toEqual(['Ocean waves crashing on rocks']);

    await user.click(screen.getByRole('combobox', { name: 'Filter by status' }));
    await user.click(await screen.findByRole('option', { name: 'Pending' }));
    expect(shownPrompts()).toEqual(['City lights timelapse']);
  });

  it('says No videos found when the search and filters hide every video', async () => {
    const { user } = await renderDashboard([sunset, forest]);
    await screen.findByRole('list', { name: 'Videos' });

    await user.type(screen.getByPlaceholderText('Search videos...'), 'volcano');
    expect(screen.getByText('No videos found')).toBeDefined();
    expect(screen.getByText('Try adjusting your search or filters')).toBeDefined();
    expect(screen.queryByText('No videos yet')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(shownPrompts()).toHaveLength(2);
  });

  it('says No videos yet, with a link to create one, when there are none', async () => {
    await renderDashboard([]);

    expect(await screen.findByText('No videos yet')).toBeDefined();
    expect(screen.getByRole('link', { name: 'Create Video' }).getAttribute('href')).toBe('/generator');
    expect(screen.queryByPlaceholderText('Search videos...')).toBeNull();
    expect(within(stat('Total Videos')).getByText('0')).toBeDefined();
  });

  it('switches between the grid and the list view', async () => {
    const { user } = await renderDashboard([sunset]);
    await screen.findByRole('list', { name: 'Videos' });
    const grid = screen.getByRole('button', { name: 'Grid view' });
    const list = screen.getByRole('button', { name: 'List view' });
    expect(grid.getAttribute('aria-pressed')).toBe('true');

    await user.click(list);
    expect(list.getAttribute('aria-pressed')).toBe('true');
    expect(grid.getAttribute('aria-pressed')).toBe('false');
  });

  it('opens a completed video in the player with its details, Download and Share', async () => {
    const { user } = await renderDashboard([sunset, forest]);

    await user.click(await screen.findByRole('button', { name: 'Sunset over the Pacific ocean' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('heading', { name: 'Sunset over the Pacific ocean' })).toBeDefined();
    expect(within(dialog).getByLabelText('Video player').getAttribute('src')).toBe('/objects/videos/video_1.mp4');
    expect(within(dialog).getByText('10 seconds')).toBeDefined();
    expect(within(dialog).getByText('3 credits')).toBeDefined();
    expect(within(dialog).getByRole('button', { name: 'Download' })).toBeDefined();
    expect(within(dialog).getByRole('button', { name: 'Share' })).toBeDefined();
    expect(within(dialog).getByRole('button', { name: 'Delete' })).toBeDefined();
  });

  it('offers no Download for a video still processing', async () => {
    const { user } = await renderDashboard([sunset, forest]);

    await user.click(await screen.findByRole('button', { name: 'Misty forest at dawn' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('heading', { name: 'Misty forest at dawn' })).toBeDefined();
    expect(within(dialog).getByText(/Rendering frames/)).toBeDefined();
    expect(within(dialog).queryByRole('button', { name: 'Download' })).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Share' })).toBeNull();
  });

  it('shows an expired video as expired, with the same facts as the media page and nothing to play or download', async () => {
    const expired = createVideo({ id: 'video_5', prompt: 'An old harbour', expiresAt: minutesAgo(30) });
    const { user } = await renderDashboard([expired]);

    await user.click(await screen.findByRole('button', { name: 'An old harbour' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('This video has expired')).toBeDefined();
    expect(within(dialog).queryByLabelText('Video player')).toBeNull();
    expect(within(dialog).getByText('Local preview')).toBeDefined();
    expect(within(dialog).queryByRole('button', { name: 'Download' })).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Delete' })).toBeDefined();
  });
});
