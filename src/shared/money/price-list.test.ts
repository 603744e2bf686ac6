import { describe, expect, it } from 'vitest';

import { formatCount, formatCreditCount, formatCreditTitle } from './price-list';

describe('formatCount', () => {
  it('writes what toLocaleString("en-US") writes, without Intl', () => {
    const values = [
      0, 1, 0.5, 2.25, 7.125, 0.0004, 0.0005, 12, 999, 1000, 1234.5, 10_000, 99_999.999, 123_456_789, 1e15, -1,
      -1234.56,
    ];
    for (const value of values) expect(formatCount(value), String(value)).toBe(value.toLocaleString('en-US'));
  });

  it('writes a negative that rounds to nothing as 0 (Intl writes -0)', () => {
    expect(formatCount(-0.0001)).toBe('0');
  });

  it('matches across a sweep of hundredths of credits', () => {
    for (let hundredths = -20_000; hundredths <= 2_000_000; hundredths += 37) {
      const credits = hundredths / 100;
      expect(formatCount(credits)).toBe(credits.toLocaleString('en-US'));
    }
  });

  it('says credit or credits', () => {
    expect(formatCreditCount(1)).toBe('1 credit');
    expect(formatCreditCount(1000)).toBe('1,000 credits');
    expect(formatCreditCount(0.5)).toBe('0.5 credits');
  });
});

describe('formatCreditTitle', () => {
  it("writes the badges' and titles' '{n} Credits', never '1 Credits'", () => {
    expect(formatCreditTitle(1)).toBe('1 Credit');
    expect(formatCreditTitle(0)).toBe('0 Credits');
    expect(formatCreditTitle(0.5)).toBe('0.5 Credits');
    expect(formatCreditTitle(30)).toBe('30 Credits');
    expect(formatCreditTitle(1000)).toBe('1,000 Credits');
  });
});
