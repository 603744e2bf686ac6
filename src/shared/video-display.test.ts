import { describe, expect, it } from 'vitest';
import { describeStatus, formatExpiry, formatVideoDate, isRecentVideo, videoFileName } from './video-display';

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

  it('names downloads, dates and recent videos as the spec shows them', () => {
    expect(videoFileName('abc', 1700000000000)).toBe('reelsmith-video-abc-1700000000000.mp4');
    expect(formatVideoDate('2026-03-05T12:00:00')).toBe('Mar 5, 2026');
    expect(isRecentVideo(later(-4 * 60_000), now)).toBe(true);
    expect(isRecentVideo(later(-6 * 60_000), now)).toBe(false);
  });
});

describe('the generator rules', async () => {
  const { composePrompt, mentionsAudio } = await import('./generations');
  it('switches audio on for the spec words only, as whole words', () => {
    for (const text of ['Epic MUSIC', 'a soundtrack', 'her voice', 'singing birds', 'audio on', 'the sound of rain']) {
      expect(mentionsAudio(text)).toBe(true);
    }
    expect(mentionsAudio('a soundless void')).toBe(false);
    expect(mentionsAudio('a quiet lake')).toBe(false);
  });

  it('appends the audio description only when audio is on', () => {
    expect(composePrompt(' A lake ', { enabled: true, description: ' soft piano ' })).toBe(
      'A lake\n\nAudio: soft piano',
    );
    expect(composePrompt('A lake', { enabled: false, description: 'soft piano' })).toBe('A lake');
    expect(composePrompt('A lake', { enabled: true, description: '  ' })).toBe('A lake');
  });
});
