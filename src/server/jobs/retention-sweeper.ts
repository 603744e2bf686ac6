import type { FastifyBaseLogger } from 'fastify';
import { sweepExpiredOutputs } from '../modules/generations/generations.service';
import { sweepExpiredUploads, type UploadDeps } from '../modules/uploads/uploads.service';

export const SWEEP_INTERVAL_MS = 10 * 60 * 1000;

/** Deletes expired inputs and videos once at start and then every 10 minutes; answers the timer to clear. */
export function startRetentionSweeper(deps: UploadDeps, log: FastifyBaseLogger): NodeJS.Timeout {
  const sweep = async () => {
    const uploads = await sweepExpiredUploads(deps);
    const videos = await sweepExpiredOutputs(deps);
    if (uploads + videos > 0) log.info({ uploads, videos }, 'retention sweep deleted expired files');
  };
  const run = () => {
    sweep().catch((error: unknown) => log.error({ err: error }, 'retention sweep failed'));
  };
  run();
  const timer = setInterval(run, SWEEP_INTERVAL_MS);
  timer.unref();
  return timer;
}
