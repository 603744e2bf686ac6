import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { WorkerConfig } from '../config';
import type { ServiceContext } from '../context';
import { publishGenerationChange, publishQueueMoved } from '../bus/publish';
import { failExhaustedJobs } from '../modules/generations/lifecycle.service';
import { deliverDueWebhook } from '../modules/outbound-webhooks/webhooks.service';
import * as queue from './queue.repository';
import { type JobWorker, runGeneration, type StopReason, tellOwner } from './run-generation';

export interface Worker {
  readonly id: string;
  /** Ids of the jobs running now. */
  busy(): string[];
  /** Stops claiming; waits up to graceMs for running jobs, then stops them and hands them back. */
  stop(graceMs?: number): Promise<void>;
}

export const DEFAULT_SHUTDOWN_GRACE_MS = 25_000;
/** Webhook deliveries sent side by side by one worker process. */
const WEBHOOK_DELIVERY_LOOPS = 2;
const EXHAUSTED_MESSAGE = 'The video could not be finished after 3 attempts. Please try again.';

/**
 * Starts `concurrency` job loops in this process. Each claims a job from the generations table,
 * runs it, and looks again; when the queue is empty it waits `pollMs`.
 */
export function startWorker(ctx: ServiceContext, options: { config: WorkerConfig; log: FastifyBaseLogger }): Worker {
  const workerId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const self: JobWorker = { id: workerId, config: options.config, log: options.log.child({ worker: workerId }) };
  const running = new Map<AbortController, string>();
  let stopping = false;
  let wake: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => {
    wake = resolve;
  });

  const idle = (ms: number) => Promise.race([new Promise<void>((resolve) => setTimeout(resolve, ms).unref()), stopped]);

  // A dead worker's job can only become exhausted once its lease expires: looking once per lease
  // period is enough, and keeps the idle loop to one query a tick.
  let nextExhaustedCheck = 0;
  const failExhausted = async () => {
    if (Date.now() < nextExhaustedCheck) return;
    nextExhaustedCheck = Date.now() + self.config.leaseSeconds * 1000;
    for (const failed of await failExhaustedJobs(ctx, EXHAUSTED_MESSAGE)) tellOwner(ctx, failed, self.log);
  };

  const loop = async () => {
    while (!stopping) {
      let claimed = null;
      try {
        await failExhausted();
        claimed = await queue.claimNext(ctx.db, workerId, self.config.leaseSeconds);
        // Right after the claim: its owner sees it start, everyone waiting sees the queue move.
        if (claimed) {
          if (claimed.attempts === 1 && claimed.startedAt)
            ctx.metrics.queueWait.observe(
              { model: claimed.model },
              Math.max(0, claimed.startedAt.getTime() - claimed.createdAt.getTime()) / 1000,
            );
          await Promise.all([publishGenerationChange(ctx.db, claimed.userId, claimed.id), publishQueueMoved(ctx)]);
        }
      } catch (error) {
        self.log.error({ err: error }, 'could not claim a job');
      }
      if (!claimed) {
        await idle(self.config.pollMs);
        continue;
      }
      const controller = new AbortController();
      running.set(controller, claimed.id);
      try {
        await runGeneration(ctx, self, claimed, controller);
      } catch (error) {
        self.log.error({ err: error, generationId: claimed.id }, 'job loop error');
      } finally {
        running.delete(controller);
      }
    }
  };

  // Outbound webhooks (the webhook_deliveries queue): sends take up to 10 s each, so they have loops of
  // their own and never hold up a video.
  const deliveryLoop = async () => {
    while (!stopping) {
      let delivered = false;
      try {
        delivered = await deliverDueWebhook(ctx);
      } catch (error) {
        self.log.error({ err: error }, 'could not deliver a webhook');
      }
      if (!delivered) await idle(self.config.pollMs);
    }
  };

  const loops = [
    ...Array.from({ length: self.config.concurrency }, () => loop()),
    ...Array.from({ length: WEBHOOK_DELIVERY_LOOPS }, () => deliveryLoop()),
  ];
  self.log.info(
    { concurrency: self.config.concurrency, jobTimeoutSeconds: self.config.jobTimeoutSeconds },
    'worker started',
  );

  return {
    id: workerId,
    busy: () => [...running.values()],
    async stop(graceMs = DEFAULT_SHUTDOWN_GRACE_MS) {
      stopping = true;
      wake();
      const all = Promise.all(loops);
      const finished = await Promise.race([
        all.then(() => true),
        new Promise<boolean>((r) => setTimeout(() => r(false), graceMs)),
      ]);
      if (!finished) {
        for (const controller of running.keys()) controller.abort('shutdown' satisfies StopReason);
        await all;
      }
      self.log.info('worker stopped');
    },
  };
}
