import type { ObjectDetector } from './ai/image-analyzer';
import { detectObjects as localDetector } from './ai/object-detector';
import type { Config } from './config';
import type { Database, Db } from './db/client';
import { createEngineRegistry, type EngineRegistry } from './engines';
import { createStripeClient, type StripeClient } from './payments/stripe-client';
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
  return {
    config,
    database,
    db: database.db,
    storage: overrides.storage ?? createStorage(config),
    engines: overrides.engines ?? createEngineRegistry(config),
    secret: config.sessionSecret,
    now: overrides.now ?? (() => new Date()),
    detectObjects: overrides.detectObjects ?? localDetector,
    aiRetryDelayMs: overrides.aiRetryDelayMs,
    stripe: config.stripe ? (overrides.stripe ?? createStripeClient(config.stripe)) : null,
  };
}
