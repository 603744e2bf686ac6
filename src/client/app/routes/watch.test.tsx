import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';

import type { WatchedVideo } from '../../../shared/safety';
import { json, preloadPage, renderAppWith, resetAfterTest, signedOut } from '../testing/render-app';

const WATCHED: WatchedVideo = {
  id: 'video_1',
  videoUrl: '/api/watch/tok_abc123/video.mp4',
  posterUrl: '/api/watch/tok_abc123/poster.jpg',
  duration: 8,
  createdAt: '2026-11-25T10:00:00.000Z',
  expiresAt: '2026-11-26T10:00:00.000Z',
  signedBy: 'Reelsmith at reelsmith.example',
};

function openWatch(video: () => Response) {
  return renderAppWith('/watch/tok_abc123', {
    'GET /api/auth/user': signedOut,
    'GET /api/watch/tok_abc123': video,
  });
}

preloadPage(() => import('./watch'));
afterEach(resetAfterTest);

describe('the /watch page', () => {
  it('plays the shared video and says when it was made, when it goes, and who signed it', async () => {
    openWatch(() => json(200, WATCHED));

    const player = await screen.findByLabelText('Video player', {}, { timeout: 10_000 });
    expect(player.getAttribute('src')).toBe(WATCHED.videoUrl);
    expect(player.getAttribute('poster')).toBe(WATCHED.posterUrl);
    expect(player.hasAttribute('controls')).toBe(true);
    expect(player.hasAttribute('playsinline')).toBe(true);
    const times = [...document.querySelectorAll('time')].map((time) => time.getAttribute('datetime'));
    expect(times).toEqual([WATCHED.createdAt, WATCHED.expiresAt]);
    expect(screen.getByText(/Available until/)).toBeDefined();
    expect(screen.getByText('Reelsmith at reelsmith.example')).toBeDefined();
    expect(screen.getByRole('link', { name: "Check a video's credentials" }).getAttribute('href')).toBe('/verify');
    expect(screen.getByRole('link', { name: /Made with Reelsmith/ }).getAttribute('href')).toBe('/');
  });

  it('says a kept video stays, and shows no signer when it has none', async () => {
    openWatch(() => json(200, { ...WATCHED, expiresAt: null, signedBy: null }));

    expect(await screen.findByText('Kept by its owner', {}, { timeout: 10_000 })).toBeDefined();
    expect(screen.queryByText(/Content Credentials/)).toBeNull();
  });

  it('offers the file itself to download, under the product’s file name', async () => {
    openWatch(() => json(200, WATCHED));

    const download = await screen.findByRole('link', { name: 'Download' }, { timeout: 10_000 });
    expect(download.getAttribute('href')).toBe(WATCHED.videoUrl);
    expect(download.getAttribute('download')).toMatch(new RegExp(`^reelsmith-video-${WATCHED.id}-\\d+\\.mp4$`));
  });

  it('links to the report form naming this page by its full address', async () => {
    openWatch(() => json(200, WATCHED));

    const report = await screen.findByRole('link', { name: 'Report this video' }, { timeout: 10_000 });
    const href = `/report?video=${encodeURIComponent(`${window.location.origin}/watch/tok_abc123`)}`;
    expect(report.getAttribute('href')).toBe(href);

    await userEvent.click(report);
    expect(await screen.findByRole('heading', { name: 'Report a video' })).toBeDefined();
    expect(screen.getByLabelText<HTMLInputElement>('Link to the video').value).toBe(
      `${window.location.origin}/watch/tok_abc123`,
    );
  });

  it("says so kindly when the video is gone, with the server's sentence", async () => {
    openWatch(() => json(404, { code: 'watch_not_found', message: 'This video has expired or was removed.' }));

    expect(
      await screen.findByRole('heading', { name: 'This video is not available' }, { timeout: 10_000 }),
    ).toBeDefined();
    expect(screen.getByText('This video has expired or was removed.')).toBeDefined();
    expect(screen.getByRole('link', { name: 'Go to Reelsmith' }).getAttribute('href')).toBe('/');
    expect(screen.queryByLabelText('Video player')).toBeNull();
  });
});
