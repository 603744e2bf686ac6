import { createHash, timingSafeEqual } from 'node:crypto';
import type { ServiceContext } from '../../context';
import { setCounter } from '../../lib/metrics';
import { notFound, unauthorized } from '../../lib/app-error';
import { queueSnapshot } from '../generations/generations.service';
import { safetyFigures } from '../safety/safety-queue.service';
import * as repo from './metrics.repository';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * GET /metrics is off (404) without METRICS_TOKEN, then answers only `Authorization: Bearer <token>`
 * (401 otherwise). The token is compared as SHA-256 digests with timingSafeEqual: equal lengths, and
 * no early exit that would time how much of a guess was right.
 */
export function requireMetricsToken(ctx: ServiceContext, authorization: string | undefined): void {
  const token = ctx.config.operations.metricsToken;
  if (!token) throw notFound();
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match?.[1] || !timingSafeEqual(digest(match[1]), digest(token))) {
    const error = unauthorized('A valid metrics token is required.', 'invalid_metrics_token');
    Object.assign(error.headers, { 'www-authenticate': 'Bearer realm="metrics"' });
    throw error;
  }
}

/** The Prometheus text of this process's metrics, with the queue and the payments read from the database now. */
export async function renderMetrics(ctx: ServiceContext): Promise<{ contentType: string; body: string }> {
  const { metrics } = ctx;
  const [queue, payments, safety] = await Promise.all([
    queueSnapshot(ctx),
    repo.paymentTotals(ctx.db),
    safetyFigures(ctx),
  ]);
  metrics.queueJobs.set({ state: 'pending' }, queue.pending);
  metrics.queueJobs.set({ state: 'processing' }, queue.processing);
  metrics.queueOldestWait.set(queue.oldestWaitSeconds);
  const byKind = new Map<string, number>();
  for (const row of payments) byKind.set(row.kind, (byKind.get(row.kind) ?? 0) + row.count);
  setCounter(
    metrics.payments,
    [...byKind].map(([kind, value]) => ({ labels: { kind }, value })),
  );
  setCounter(
    metrics.paymentAmount,
    payments.map((row) => ({ labels: { kind: row.kind, currency: row.currency }, value: row.cents })),
  );
  setCounter(
    metrics.safetyReports,
    safety.byReason.map((row) => ({ labels: { reason: row.reason }, value: row.count })),
  );
  metrics.safetyOpen.set(safety.open);
  metrics.safetyDecisionMedian.set((safety.medianDecisionHours ?? 0) * 3600);
  return { contentType: metrics.registry.contentType, body: await metrics.registry.metrics() };
}
