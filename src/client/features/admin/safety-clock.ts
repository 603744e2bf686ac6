const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
/** Under this much time left, the clock turns amber: a quarter of the 48 hours. */
const SOON_MS = 12 * HOUR_MS;

export interface DecisionClock {
  /** '31 h left', '45 min left', 'Overdue by 3 h'. */
  text: string;
  /** 'overdue' is drawn in the destructive colour, 'soon' in amber. */
  tone: 'ok' | 'soon' | 'overdue';
}

/** '31 h', '45 min': whole hours from an hour on, whole minutes below (at least 1). */
function span(ms: number): string {
  if (ms >= HOUR_MS) return `${Math.floor(ms / HOUR_MS)} h`;
  return `${Math.max(1, Math.floor(ms / MINUTE_MS))} min`;
}

/**
 * The time an administrator has left to decide an item due at `dueAt`, as of `now`. Whole units are
 * rounded down, so the clock never promises more time than there is; once `dueAt` has passed it
 * says how long ago.
 */
export function decisionClock(dueAt: string, now: Date): DecisionClock {
  const left = new Date(dueAt).getTime() - now.getTime();
  if (Number.isNaN(left)) return { text: 'No deadline', tone: 'ok' };
  if (left <= 0) return { text: `Overdue by ${span(-left)}`, tone: 'overdue' };
  return { text: `${span(left)} left`, tone: left < SOON_MS ? 'soon' : 'ok' };
}
