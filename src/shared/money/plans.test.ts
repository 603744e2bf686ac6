import { describe, expect, it } from 'vitest';
import { CREDIT_PACKAGES, EXTRA_PACKS, generationDayStart, nextGenerationReset } from './plans';

const iso = (d: Date) => d.toISOString();

describe('the daily generation clock (3am New York)', () => {
  it('starts the day at 3am EST in winter and 3am EDT in summer', () => {
    expect(iso(generationDayStart(new Date('2026-01-15T12:00:00Z')))).toBe('2026-01-15T08:00:00.000Z');
    expect(iso(generationDayStart(new Date('2026-07-15T12:00:00Z')))).toBe('2026-07-15T07:00:00.000Z');
  });

  it('belongs to the previous day before 3am New York time', () => {
    // 2:59am EST on Jan 15 is still Jan 14's generation day.
    expect(iso(generationDayStart(new Date('2026-01-15T07:59:00Z')))).toBe('2026-01-14T08:00:00.000Z');
    expect(iso(generationDayStart(new Date('2026-01-15T08:00:00Z')))).toBe('2026-01-15T08:00:00.000Z');
  });

  it('is right across both daylight-saving changes', () => {
    // Spring forward: Sunday 8 March 2026, 2am EST becomes 3am EDT; that day starts at 3am EDT (07:00Z).
    expect(iso(generationDayStart(new Date('2026-03-08T10:00:00Z')))).toBe('2026-03-08T07:00:00.000Z');
    expect(iso(nextGenerationReset(new Date('2026-03-07T12:00:00Z')))).toBe('2026-03-08T07:00:00.000Z');
    // A 23-hour generation day: Saturday 3am EST to Sunday 3am EDT.
    const saturday = generationDayStart(new Date('2026-03-07T12:00:00Z'));
    expect((nextGenerationReset(saturday).getTime() - saturday.getTime()) / 3_600_000).toBe(23);
    // Fall back: Sunday 1 November 2026, 2am EDT becomes 1am EST; 3am EST is 08:00Z, a 25-hour day before it.
    expect(iso(nextGenerationReset(new Date('2026-10-31T12:00:00Z')))).toBe('2026-11-01T08:00:00.000Z');
    const halloween = generationDayStart(new Date('2026-10-31T12:00:00Z'));
    expect((nextGenerationReset(halloween).getTime() - halloween.getTime()) / 3_600_000).toBe(25);
  });
});

describe('the commercial constants', () => {
  it('prices credits at $1 and the packs as the spec lists them', () => {
    expect(CREDIT_PACKAGES.map((p) => [p.credits, p.priceCents / 100])).toEqual([
      [10, 10],
      [30, 30],
      [75, 75],
      [200, 200],
    ]);
    expect(CREDIT_PACKAGES.filter((p) => p.popular).map((p) => p.credits)).toEqual([30]);
    expect(EXTRA_PACKS).toEqual({
      small: { generations: 30, priceCents: 1000 },
      medium: { generations: 70, priceCents: 2000 },
      large: { generations: 175, priceCents: 5000 },
    });
  });
});
