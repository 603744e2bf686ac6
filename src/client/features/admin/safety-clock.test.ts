import { describe, expect, it } from 'vitest';

import { decisionClock } from './safety-clock';

const NOW = new Date('2026-11-25T12:00:00.000Z');
const at = (minutesFromNow: number) => new Date(NOW.getTime() + minutesFromNow * 60_000).toISOString();

describe('the decision clock', () => {
  it('says the whole hours left, never more than there are', () => {
    expect(decisionClock(at(48 * 60), NOW)).toEqual({ text: '48 h left', tone: 'ok' });
    expect(decisionClock(at(31 * 60 + 59), NOW)).toEqual({ text: '31 h left', tone: 'ok' });
    expect(decisionClock(at(60), NOW)).toEqual({ text: '1 h left', tone: 'soon' });
  });

  it('turns amber under 12 hours and counts minutes in the last hour', () => {
    expect(decisionClock(at(12 * 60), NOW).tone).toBe('ok');
    expect(decisionClock(at(11 * 60 + 59), NOW)).toEqual({ text: '11 h left', tone: 'soon' });
    expect(decisionClock(at(45.5), NOW)).toEqual({ text: '45 min left', tone: 'soon' });
    expect(decisionClock(at(0.25), NOW)).toEqual({ text: '1 min left', tone: 'soon' });
  });

  it('says how long ago the deadline passed, in minutes then hours', () => {
    expect(decisionClock(at(0), NOW)).toEqual({ text: 'Overdue by 1 min', tone: 'overdue' });
    expect(decisionClock(at(-20), NOW)).toEqual({ text: 'Overdue by 20 min', tone: 'overdue' });
    expect(decisionClock(at(-3 * 60 - 40), NOW)).toEqual({ text: 'Overdue by 3 h', tone: 'overdue' });
  });
});
