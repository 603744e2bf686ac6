import { randomInt } from 'node:crypto';
import { type AdvancedSettings, MAX_UNFINISHED_JOBS, MAX_VARIATIONS } from '../../../shared/generations';
import { tooManyRequests } from '../../lib/app-error';

// Variations: one request, N jobs. Each job is one generation as the rules know it
// (paid on its own ledger row, counted against the unfinished-jobs limit); they share a groupId.

/** The largest seed the settings take (advancedSettingsSchema). */
const MAX_SEED = 4_294_967_295;

/**
 * The settings of each of N jobs: one job keeps the request's settings as they are; N jobs each get
 * their own seed (the request's seed, then the next ones; random ones when it names none), so each
 * record says how to make it again.
 */
export function variationSettings(settings: AdvancedSettings, count: number): AdvancedSettings[] {
  if (count <= 1) return [settings];
  const first = settings.seed ?? randomInt(0, MAX_SEED - MAX_VARIATIONS);
  return Array.from({ length: count }, (_, i) => ({ ...settings, seed: (first + i) % (MAX_SEED + 1) }));
}

/**
 * A batch may take the user up to the unfinished-jobs limit, and a batch on its own may reach
 * MAX_VARIATIONS (four variations with nothing else running).
 */
export function checkBatchFits(unfinished: number, count: number): void {
  const limit = Math.max(MAX_UNFINISHED_JOBS, count);
  if (unfinished + count <= limit) return;
  throw tooManyRequests(
    unfinished > 0
      ? `You have ${unfinished} ${unfinished === 1 ? 'video' : 'videos'} in progress, and ${count} variations would make more than ${limit}. Wait for one to finish, or make fewer variations.`
      : `At most ${limit} variations at once.`,
    30,
    'too_many_unfinished_jobs',
  );
}
