import { describe, expect, it } from 'vitest';

import { canKeepVideos, retentionAsTitle, retentionInWords } from './retention';

describe('the retention in words', () => {
  it("keeps the spec's '24 hours' and '24-Hour' at the default, and says any other figure", () => {
    expect([24, 1, 2, 36, 48, 168, 8760].map(retentionInWords)).toEqual([
      '24 hours',
      '1 hour',
      '2 hours',
      '36 hours',
      '2 days',
      '7 days',
      '365 days',
    ]);
    expect([24, 1, 36, 168].map(retentionAsTitle)).toEqual(['24-Hour', '1-Hour', '36-Hour', '7-Day']);
  });
});

describe('who may keep videos', () => {
  const user = (subscriptionStatus: string, isAdmin = false) => ({ subscriptionStatus, isAdmin });
  it('is nobody by default, and the groups KEEP_VIDEOS_FOR names otherwise', () => {
    expect(canKeepVideos([], user('active', true))).toBe(false);
    expect(canKeepVideos(['everyone'], user('inactive'))).toBe(true);
    expect(canKeepVideos(['subscribers'], user('trial'))).toBe(true);
    expect(canKeepVideos(['subscribers'], user('premium_unlimited'))).toBe(false);
    expect(canKeepVideos(['premium_unlimited'], user('premium_unlimited'))).toBe(true);
    expect(canKeepVideos(['admins'], user('inactive', true))).toBe(true);
    expect(canKeepVideos(['admins', 'active'], user('inactive'))).toBe(false);
  });
});
