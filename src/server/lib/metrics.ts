import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * This process's Prometheus metrics (GET /metrics, issue 31), one registry per service context so
 * every test app counts on its own. Counted in the process where things happen (HTTP requests, event
 * streams, jobs run by this process's worker, provider errors); the queue and the payments are read
 * from the database at scrape time (modules/metrics), so they are the same whichever process answers.
 */
export interface Metrics {
  registry: Registry;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  eventStreams: Gauge;
  queueJobs: Gauge<'state'>;
  queueOldestWait: Gauge;
  queueWait: Histogram<'model'>;
  jobDuration: Histogram<'model' | 'outcome'>;
  providerErrors: Counter<'model' | 'kind'>;
  payments: Counter<'kind'>;
  paymentAmount: Counter<'kind' | 'currency'>;
  safetyReports: Counter<'reason'>;
  safetyOpen: Gauge;
  safetyDecisionMedian: Gauge;
  /** Names where the open event streams are counted (the live hub); read at each scrape. */
  countEventStreams(count: () => number): void;
}

/** How a job's run ended: done, failed for good, queued again, handed back at shutdown, or stopped (deleted, cancelled). */
export type JobOutcome = 'completed' | 'failed' | 'retried' | 'released' | 'stopped';

const PREFIX = 'reelsmith_';

/**
 * prom-client's three gauges named like counters (`promtool check metrics` refuses a gauge whose name
 * ends in _total). Each is the sum of a gauge it also reports by type (`nodejs_active_handles{type}`
 * and so on), which stays: `sum(nodejs_active_handles)` is the same figure.
 */
const MISNAMED_GAUGES = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];

/**
 * Node's own metrics (CPU, memory, event loop, handles) under the names prom-client gives them, so
 * the usual Node.js dashboards read them unchanged, less the three misnamed totals.
 */
function collectNodeMetrics(registry: Registry): void {
  collectDefaultMetrics({ register: registry });
  for (const name of MISNAMED_GAUGES) registry.removeSingleMetric(name);
}

/** Builds the registry; `withProcessMetrics` adds Node's own (CPU, memory, event loop) when /metrics is on. */
export function createMetrics(withProcessMetrics: boolean): Metrics {
  const registry = new Registry();
  if (withProcessMetrics) collectNodeMetrics(registry);
  let streams: () => number = () => 0;
  const registers = [registry];
  return {
    registry,
    httpDuration: new Histogram({
      name: `${PREFIX}http_request_duration_seconds`,
      help: 'HTTP requests by method, route pattern (never the raw URL) and status class.',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    eventStreams: new Gauge({
      name: `${PREFIX}event_stream_connections`,
      help: 'Live event streams (GET /api/events) open in this process.',
      registers,
      collect() {
        this.set(streams());
      },
    }),
    queueJobs: new Gauge({
      name: `${PREFIX}queue_jobs`,
      help: 'Jobs in the queue by state (pending: waiting; processing: running), read from the database.',
      labelNames: ['state'],
      registers,
    }),
    queueOldestWait: new Gauge({
      name: `${PREFIX}queue_oldest_wait_seconds`,
      help: 'How long the oldest runnable pending job has waited, read from the database (0 when none).',
      registers,
    }),
    queueWait: new Histogram({
      name: `${PREFIX}queue_wait_seconds`,
      help: 'Time from a job being queued to its first claim, by model (observed by the claiming worker).',
      labelNames: ['model'],
      buckets: [0.1, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600, 1800],
      registers,
    }),
    jobDuration: new Histogram({
      name: `${PREFIX}job_duration_seconds`,
      help: "One attempt's run time by model and outcome (observed by the worker that ran it).",
      labelNames: ['model', 'outcome'],
      buckets: [1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 900, 1800],
      registers,
    }),
    providerErrors: new Counter({
      name: `${PREFIX}provider_errors_total`,
      help: 'Engine and provider failures by model and kind (policy, input, timeout, unavailable, auth, provider, crash).',
      labelNames: ['model', 'kind'],
      registers,
    }),
    payments: new Counter({
      name: `${PREFIX}payments_total`,
      help: 'Fulfilled payments by kind (credits, extra_pack), read from the database.',
      labelNames: ['kind'],
      registers,
    }),
    paymentAmount: new Counter({
      name: `${PREFIX}payment_amount_cents_total`,
      help: 'Money received by kind and currency, in cents (before refunds), read from the database.',
      labelNames: ['kind', 'currency'],
      registers,
    }),
    safetyReports: new Counter({
      name: `${PREFIX}safety_reports_total`,
      help: 'Reports of videos by reason (intimate_image, likeness, minor, violence, copyright, other), read from the database.',
      labelNames: ['reason'],
      registers,
    }),
    safetyOpen: new Gauge({
      name: `${PREFIX}safety_open_items`,
      help: 'Reports, appeals and jobs screening held, waiting for an administrator; read from the database.',
      registers,
    }),
    safetyDecisionMedian: new Gauge({
      name: `${PREFIX}safety_decision_median_seconds`,
      help: 'Median time from a report to its decision, read from the database (0 before the first decision).',
      registers,
    }),
    countEventStreams(count) {
      streams = count;
    },
  };
}

/** A counter read from the database: set to the stored total (it only grows, as a counter must). */
export function setCounter<T extends string>(
  counter: Counter<T>,
  rows: { labels: Record<T, string>; value: number }[],
) {
  counter.reset();
  for (const row of rows) counter.inc(row.labels as Partial<Record<T, string | number>>, row.value);
}
