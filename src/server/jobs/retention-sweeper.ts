import type { FastifyBaseLogger } from 'fastify';
import type { ServiceContext } from '../context';
import { removeStaleWorkDirs } from '../media/work-dirs';
import { sweepIdempotencyKeys } from '../modules/idempotency/idempotency.service';
import { pruneExpiredSessions } from '../modules/auth/auth.service';
import { pruneLiveEvents } from '../bus/publish';
import { releaseLapsedKeeps } from '../modules/generations/keep.service';
import { sweepExpiredOutputs, sweepOldRecords } from '../modules/generations/retention.service';
import { sweepOldAiResults } from '../modules/prompts/prompts.service';
import { sweepAbandonedUploads, sweepExpiredUploads } from '../modules/uploads/uploads.service';
import { pruneWebhookDeliveries } from '../modules/outbound-webhooks/webhooks.service';
import { pruneDecidedReports } from '../modules/safety/safety-queue.service';
import { longestJobBudgetMs } from './job-budget';

export const SWEEP_INTERVAL_MS = 10 * 60 * 1000;
/** A job's folder may be removed a little after its budget ran out (it is then being cleaned up). */
const WORK_DIR_MARGIN_MS = 60_000;

export interface Swept {
  uploads: number;
  videos: number;
  /** Kept videos whose owners KEEP_VIDEOS_FOR no longer allows: expiring again, VIDEO_RETENTION_HOURS from now. */
  releasedKeeps: number;
  /** Generation records past GENERATION_RECORD_RETENTION_DAYS, and AI results too old to be used. */
  records: number;
  aiResults: number;
  sessions: number;
  /** Rows of uploads abandoned mid-transfer, and local storage's partial files. */
  abandonedUploads: number;
  partialFiles: number;
  /** Work folders of jobs and upload checks that a dead process left in the temp folder. */
  workDirs: number;
  /** Live events past their reconnect window. */
  liveEvents: number;
  /** Webhook deliveries older than the delivery log keeps (a week). */
  webhookDeliveries: number;
  /** Idempotency-Key answers past their 24 hours. */
  idempotencyKeys: number;
  /** Decided reports past SAFETY_RECORDS_DAYS. */
  safetyReports: number;
}

/**
 * One sweep: expired inputs and their files, videos past their expiry (VIDEO_RETENTION_HOURS after
 * completion; never a kept one), sessions past their
 * expiry, and what crashes leave behind: uploads that never finished, and work folders older than
 * any job may run (never one this process is using). It deletes files and rows only; it kills no
 * process (media/processes.ts says why none outlives its limit).
 */
export async function sweepExpired(ctx: ServiceContext): Promise<Swept> {
  const uploads = await sweepExpiredUploads(ctx);
  const releasedKeeps = await releaseLapsedKeeps(ctx);
  const videos = await sweepExpiredOutputs(ctx);
  const records = await sweepOldRecords(ctx);
  const aiResults = await sweepOldAiResults(ctx);
  const sessions = await pruneExpiredSessions(ctx);
  const abandoned = await sweepAbandonedUploads(ctx);
  const workDirs = await removeStaleWorkDirs(longestJobBudgetMs(ctx.config) + WORK_DIR_MARGIN_MS);
  const liveEvents = await pruneLiveEvents(ctx);
  const webhookDeliveries = await pruneWebhookDeliveries(ctx);
  const idempotencyKeys = await sweepIdempotencyKeys(ctx);
  const safetyReports = await pruneDecidedReports(ctx);
  return {
    uploads,
    videos,
    releasedKeeps,
    records,
    aiResults,
    sessions,
    abandonedUploads: abandoned.rows,
    partialFiles: abandoned.partialFiles,
    workDirs,
    liveEvents,
    webhookDeliveries,
    idempotencyKeys,
    safetyReports,
  };
}

/** Sweeps once at start and then every 10 minutes; answers the timer to clear. */
export function startRetentionSweeper(ctx: ServiceContext, log: FastifyBaseLogger): NodeJS.Timeout {
  const run = () => {
    sweepExpired(ctx)
      .then((swept) => {
        if (Object.values(swept).some((count) => count > 0))
          log.info(swept, 'retention sweep deleted expired and abandoned data');
      })
      .catch((error: unknown) => log.error({ err: error }, 'retention sweep failed'));
  };
  run();
  const timer = setInterval(run, SWEEP_INTERVAL_MS);
  timer.unref();
  return timer;
}
