import { describe, expect, it } from 'vitest';
import {
  describeStatus,
  expiredWhen,
  formatExpiry,
  formatVideoDate,
  isExpiredVideo,
  isPlayable,
  isRecentVideo,
  videoFileName,
} from './video-display';

const now = new Date('2026-11-22T12:00:00Z');
const later = (ms: number) => new Date(now.getTime() + ms).toISOString();

describe('formatExpiry', () => {
  it('counts down in days and hours, hours and minutes, then minutes, then says Expired', () => {
    expect(formatExpiry(later(26 * 3600_000 + 5 * 60_000), now)).toBe('1d 2h');
    expect(formatExpiry(later(23 * 3600_000 + 59 * 60_000 + 30_000), now)).toBe('23h 59m');
    expect(formatExpiry(later(59 * 60_000 + 59_000), now)).toBe('59m');
    expect(formatExpiry(later(30_000), now)).toBe('0m');
    expect(formatExpiry(later(0), now)).toBe('Expired');
    expect(formatExpiry(later(-1000), now)).toBe('Expired');
    expect(formatExpiry(null, now)).toBeNull();
  });
});

describe('video display rules', () => {
  it('labels statuses with their colours and unknown values as Unknown', () => {
    expect(describeStatus('completed')).toEqual({ label: 'Completed', tone: 'success' });
    expect(describeStatus('failed')).toEqual({ label: 'Failed', tone: 'danger' });
    expect(describeStatus('processing')).toEqual({ label: 'Processing', tone: 'warning' });
    expect(describeStatus('queued')).toEqual({ label: 'Unknown', tone: 'warning' });
  });

  it('plays, downloads and shares only a completed video with its file, before it expires', () => {
    const video = { status: 'completed', outputVideoUrl: '/objects/videos/a.mp4', expiresAt: later(60_000) };
    expect(isPlayable(video, now)).toBe(true);
    expect(isPlayable({ ...video, expiresAt: null }, now)).toBe(true);
    expect(isPlayable({ ...video, expiresAt: later(0) }, now)).toBe(false);
    expect(isPlayable({ ...video, outputVideoUrl: null }, now)).toBe(false);
    for (const status of ['pending', 'processing', 'failed']) expect(isPlayable({ ...video, status }, now)).toBe(false);
  });

  it('names downloads, dates and recent videos as the spec shows them', () => {
    expect(videoFileName('abc', 1700000000000)).toBe('reelsmith-video-abc-1700000000000.mp4');
    expect(formatVideoDate('2026-03-05T12:00:00')).toBe('Mar 5, 2026');
    expect(isRecentVideo(later(-4 * 60_000), now)).toBe(true);
    expect(isRecentVideo(later(-6 * 60_000), now)).toBe(false);
  });
});

describe('the generator rules', async () => {
  const { mentionsAudio } = await import('./generations');
  it('switches audio on for the spec words only, as whole words', () => {
    for (const text of ['Epic MUSIC', 'a soundtrack', 'her voice', 'singing birds', 'audio on', 'the sound of rain']) {
      expect(mentionsAudio(text)).toBe(true);
    }
    expect(mentionsAudio('a soundless void')).toBe(false);
    expect(mentionsAudio('a quiet lake')).toBe(false);
  });
});

describe('expired videos', () => {
  const now = new Date('2026-11-23T12:00:00Z');
  it('are completed videos past their expiry only', () => {
    expect(isExpiredVideo({ status: 'completed', expiresAt: '2026-11-23T11:00:00Z' }, now)).toBe(true);
    expect(isExpiredVideo({ status: 'completed', expiresAt: '2026-11-23T13:00:00Z' }, now)).toBe(false);
    expect(isExpiredVideo({ status: 'failed', expiresAt: '2026-11-23T11:00:00Z' }, now)).toBe(false);
    expect(isExpiredVideo({ status: 'completed', expiresAt: null }, now)).toBe(false);
  });
  it('say when', () => {
    expect(expiredWhen('2026-11-23T11:59:50Z', now)).toBe('Expired 1m ago');
    expect(expiredWhen('2026-11-23T11:20:00Z', now)).toBe('Expired 40m ago');
    expect(expiredWhen('2026-11-23T06:00:00Z', now)).toBe('Expired 6h ago');
    expect(expiredWhen('2026-11-20T06:00:00Z', now)).toMatch(/^Expired Nov 20, 2026$/);
  });
});
