import type { FastifyBaseLogger } from 'fastify';
import type { ServiceContext } from '../context';
import { pruneExpiredSessions } from '../modules/auth/auth.service';
import { sweepExpiredOutputs } from '../modules/generations/generations.service';
import { sweepExpiredUploads } from '../modules/uploads/uploads.service';

export const SWEEP_INTERVAL_MS = 10 * 60 * 1000;

/** One sweep: expired inputs and their files, videos past their 24 hours, sessions past their expiry. */
export async function sweepExpired(ctx: ServiceContext): Promise<{ uploads: number; videos: number; sessions: number }> {
  const uploads = await sweepExpiredUploads(ctx);
  const videos = await sweepExpiredOutputs(ctx);
  const sessions = await pruneExpiredSessions(ctx);
  return { uploads, videos, sessions };
}

/** Deletes expired inputs, videos and sessions once at start and then every 10 minutes; answers the timer to clear. */
export function startRetentionSweeper(ctx: ServiceContext, log: FastifyBaseLogger): NodeJS.Timeout {
  const run = () => {
    sweepExpired(ctx)
      .then((swept) => {
        if (swept.uploads + swept.videos + swept.sessions > 0) log.info(swept, 'retention sweep deleted expired data');
      })
      .catch((error: unknown) => log.error({ err: error }, 'retention sweep failed'));
  };
  run();
  const timer = setInterval(run, SWEEP_INTERVAL_MS);
  timer.unref();
  return timer;
}
