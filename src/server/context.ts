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
  /** The configuration in effect: the environment's, with the providers an administrator saved (config-providers.ts). */
  config: Config;
  /** The configuration read from the environment alone. */
  baseConfig: Config;
  /**
   * Puts another configuration in effect (saved provider settings changed): the engines and the
   * providers' webhooks are built again for it; a job already running keeps the engine it has.
   */
  reconfigure(next: Config): void;
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

/** What the engine catalogue is built from, besides files read at start: each provider's settings. */
function engineSettingsOf(config: Config): string {
  return JSON.stringify([config.fal, config.replicate, config.gemini, config.kling, config.comfyui]);
}

export function createServiceContext(
  config: Config,
  database: Database,
  overrides: ServiceOverrides = {},
): ServiceContext {
  const media = resolveFfmpeg(config.ffmpeg, config.ffmpeg.searchPath);
  let current = config;
  let webhooks = createWebhookRegistry(config);
  let engines = overrides.engines ?? createEngineRegistry(config, { media, webhooks });
  const stripeFor = (next: Config) => (next.stripe ? (overrides.stripe ?? createStripeClient(next.stripe)) : null);
  let stripe = stripeFor(config);
  return {
    get config() {
      return current;
    },
    baseConfig: config,
    reconfigure(next) {
      // Replicate's webhook registry holds the jobs waiting on it: kept while the token is the same.
      const sameReplicate = next.replicate?.apiToken === current.replicate?.apiToken;
      const nextWebhooks = sameReplicate ? webhooks : createWebhookRegistry(next);
      // The catalogue (which reads MODELS_CONFIG and the ComfyUI templates from disk) is built again only
      // when a provider's settings changed: a saved rule, contact, mail server or Stripe key keeps it.
      const sameEngines = sameReplicate && engineSettingsOf(next) === engineSettingsOf(current);
      const nextEngines = sameEngines
        ? engines
        : (overrides.engines ?? createEngineRegistry(next, { media, webhooks: nextWebhooks }));
      // The Stripe client is made again only when its key or server changed.
      if (next.stripe?.secretKey !== current.stripe?.secretKey || next.stripe?.apiUrl !== current.stripe?.apiUrl)
        stripe = stripeFor(next);
      current = next;
      webhooks = nextWebhooks;
      engines = nextEngines;
    },
    database,
    db: database.db,
    storage: overrides.storage ?? createStorage(config),
    get engines() {
      return engines;
    },
    media,
    get webhooks() {
      return webhooks;
    },
    secret: config.sessionSecret,
    now: overrides.now ?? (() => new Date()),
    detectObjects: overrides.detectObjects ?? localDetector,
    aiRetryDelayMs: overrides.aiRetryDelayMs,
    get stripe() {
      return stripe;
    },
    metrics: createMetrics(Boolean(config.operations.metricsToken)),
  };
}
