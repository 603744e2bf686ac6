import type { ObjectDetector } from './ai/image-analyzer';
import { detectObjects as localDetector } from './ai/object-detector';
import type { Config } from './config';
import type { Database, Db } from './db/client';
import { createEngineRegistry, createWebhookRegistry, type EngineRegistry, type WebhookRegistry } from './engines';
import { createMetrics, type Metrics } from './lib/metrics';
import { type FfmpegBinaries, resolveFfmpeg } from './media/ffmpeg';
import { createStripeClient, type StripeClient } from './stripe/stripe-client';
import { createStorage, type ObjectStorage } from './storage';

/**
 * What every service works with, built once per process (createServiceContext) and passed as the
 * first argument of every service function. Functions that take part in a caller's transaction
 * take that transaction (`tx: Executor`) first instead, like repositories.
 */
export interface ServiceContext {
  config: Config;
  /** The open database (kind, ping, close); `db` is its Drizzle handle. */
  database: Database;
  db: Db;
  storage: ObjectStorage;
  engines: EngineRegistry;
  /** FFmpeg and ffprobe: the upload check, the output check and posters, Continue's last frame. */
  media: FfmpegBinaries;
  /** Providers' signed webhooks (Replicate's), which wake the job waiting on them. */
  webhooks: WebhookRegistry;
  /** The installation secret that signs sessions, upload URLs and media links. */
  secret: string;
  /** The clock; tests move it to cross the 24-hour line or the 3am reset. */
  now: () => Date;
  /** The image analysis's object detector. */
  detectObjects: ObjectDetector;
  /** Backoff before a rate-limited AI call is retried (tests make it short). */
  aiRetryDelayMs: number | undefined;
  /** The Stripe SDK when payments are configured (STRIPE_* keys); null without them. */
  stripe: StripeClient | null;
  /** This process's Prometheus metrics (GET /metrics when METRICS_TOKEN is set). */
  metrics: Metrics;
}

/** Parts a caller (a test, the benchmark) may supply instead of the configured defaults. */
export type ServiceOverrides = Partial<
  Pick<ServiceContext, 'storage' | 'engines' | 'now' | 'detectObjects' | 'aiRetryDelayMs'>
> & {
  /** Used only when the configuration enables payments. */
  stripe?: StripeClient;
};

export function createServiceContext(
  config: Config,
  database: Database,
  overrides: ServiceOverrides = {},
): ServiceContext {
  const media = resolveFfmpeg(config.ffmpeg, config.ffmpeg.searchPath);
  const webhooks = createWebhookRegistry(config);
  return {
    config,
    database,
    db: database.db,
    storage: overrides.storage ?? createStorage(config),
    engines: overrides.engines ?? createEngineRegistry(config, { media, webhooks }),
    media,
    webhooks,
    secret: config.sessionSecret,
    now: overrides.now ?? (() => new Date()),
    detectObjects: overrides.detectObjects ?? localDetector,
    aiRetryDelayMs: overrides.aiRetryDelayMs,
    stripe: config.stripe ? (overrides.stripe ?? createStripeClient(config.stripe)) : null,
    metrics: createMetrics(Boolean(config.operations.metricsToken)),
  };
}
