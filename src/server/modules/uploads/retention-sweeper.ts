import type { FastifyBaseLogger } from 'fastify';
import { sweepExpiredUploads, type UploadDeps } from './uploads.service';

export const SWEEP_INTERVAL_MS = 10 * 60 * 1000;

/** Deletes expired files once at start and then every 10 minutes; answers the timer to clear. */
export function startRetentionSweeper(deps: UploadDeps, log: FastifyBaseLogger): NodeJS.Timeout {
  const sweep = () => {
    sweepExpiredUploads(deps)
      .then((deleted) => {
        if (deleted > 0) log.info({ deleted }, 'retention sweep deleted expired uploads');
      })
      .catch((error: unknown) => log.error({ err: error }, 'retention sweep failed'));
  };
  sweep();
  const timer = setInterval(sweep, SWEEP_INTERVAL_MS);
  timer.unref();
  return timer;
}
