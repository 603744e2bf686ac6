import type { ServiceContext } from '../../context';
import type { GenerationRow } from '../../db/schema';
import * as repo from './generations.repository';

/** Queue figures are read at most this often per process: estimates need not be fresher. */
const STATS_TTL_MS = 5000;

export interface QueueStats {
  running: number;
  /** Seconds the latest completed jobs took, on average; null before any completed. */
  averageSeconds: number | null;
}

const cache = new WeakMap<ServiceContext, { at: number; stats: Promise<QueueStats> }>();

/** Running jobs and recent durations, cached per service context for a few seconds. */
export function queueStats(ctx: ServiceContext): Promise<QueueStats> {
  const cached = cache.get(ctx);
  if (cached && Date.now() - cached.at < STATS_TTL_MS) return cached.stats;
  const stats = repo.queueStats(ctx.db);
  cache.set(ctx, { at: Date.now(), stats });
  stats.catch(() => cache.delete(ctx));
  return stats;
}

const at = (now: Date, seconds: number) =>
  new Date(now.getTime() + Math.max(0, Math.round(seconds)) * 1000).toISOString();

/**
 * An honest guess, labelled as one by the client (decision 011): a waiting job starts when the jobs
 * ahead of it (waiting and running) have gone through the workers seen running, each taking the
 * recent average; a running job needs what its progress so far suggests, or the average. No
 * history, no estimate.
 */
export function estimateFor(
  row: GenerationRow,
  position: number | null,
  stats: QueueStats,
  now: Date,
): { queuePosition: number | null; estimatedStartAt: string | null; estimatedReadyAt: string | null } {
  const average = stats.averageSeconds;
  if (row.status === 'pending') {
    if (position === null || average === null)
      return { queuePosition: position, estimatedStartAt: null, estimatedReadyAt: null };
    const lanes = Math.max(1, stats.running);
    const rounds = Math.floor((position - 1 + stats.running) / lanes);
    const startIn = rounds * average;
    return {
      queuePosition: position,
      estimatedStartAt: at(now, startIn),
      estimatedReadyAt: at(now, startIn + average),
    };
  }
  if (row.status === 'processing' && row.startedAt) {
    const elapsed = (now.getTime() - row.startedAt.getTime()) / 1000;
    const byProgress = row.progress >= 5 ? (elapsed * (100 - row.progress)) / row.progress : null;
    const left = byProgress ?? (average === null ? null : Math.max(average - elapsed, 5));
    return { queuePosition: null, estimatedStartAt: null, estimatedReadyAt: left === null ? null : at(now, left) };
  }
  return { queuePosition: null, estimatedStartAt: null, estimatedReadyAt: null };
}
