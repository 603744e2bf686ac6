import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { Database } from './db/client';
import { registerClientFiles } from './http/client-files';
import { registerErrorHandler } from './http/error-handler';
import { registerSecurity } from './http/security';
import { AppError } from './lib/app-error';
import { adminRoutes } from './modules/admin/admin.routes';
import { registerAuthHooks } from './modules/auth/auth.hooks';
import { authRoutes } from './modules/auth/auth.routes';
import { creditsRoutes } from './modules/credits/credits.routes';
import { errorReportsRoutes } from './modules/error-reports/error-reports.routes';
import { healthRoutes } from './modules/health/health.routes';
import { uploadsRoutes } from './modules/uploads/uploads.routes';
import { usersRoutes } from './modules/users/users.routes';
import { createEngineRegistry, type EngineRegistry } from './engines';
import type { ObjectDetector } from './ai/image-analyzer';
import { detectObjects as localDetector } from './ai/object-detector';
import { generationsRoutes } from './modules/generations/generations.routes';
import { billingRoutes } from './modules/billing/billing.routes';
import { promptsRoutes } from './modules/prompts/prompts.routes';
import { paymentsRoutes } from './modules/payments/payments.routes';
import type { StripeClient } from './modules/payments/stripe-gateway';
import { createStorage, type ObjectStorage } from './storage';

export interface AppDeps {
  config: Config;
  database: Database;
  /** Defaults to the storage the configuration names. */
  storage?: ObjectStorage;
  /** The clock; tests move it to cross the 24-hour line. */
  now?: () => Date;
  /** Defaults to the engines the configuration enables. */
  engines?: EngineRegistry;
  /** The image analysis's object detector. */
  detectObjects?: ObjectDetector;
  /** Backoff before a rate-limited AI call is retried. */
  aiRetryDelayMs?: number;
  /** Defaults to the Stripe SDK the configuration names. */
  stripe?: StripeClient;
}

/** JSON bodies above this are refused with 413 (routes may set a smaller limit). */
export const JSON_BODY_LIMIT = 1024 * 1024;

/** Builds the whole HTTP application; never listens (main.ts does, tests use inject or listen themselves). */
export async function buildApp({ config, database, storage, now, engines, detectObjects, aiRetryDelayMs, stripe }: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
    },
    bodyLimit: JSON_BODY_LIMIT,
    trustProxy: config.trustProxy,
    requestIdHeader: false,
    // Media capability ids (base64url object keys) are longer than the default 100.
    routerOptions: { maxParamLength: 512 },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);

  await registerSecurity(app, config);
  await app.register(cookie);
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) =>
      new AppError(429, 'rate_limited', 'Too many requests. Please wait a moment and try again.', {
        'retry-after': String(Math.ceil(context.ttl / 1000)),
      }),
  });
  registerAuthHooks(app, { db: database.db, config });

  await app.register(healthRoutes, { database });
  await app.register(authRoutes, { db: database.db, config });
  await app.register(usersRoutes);
  await app.register(creditsRoutes);
  await app.register(errorReportsRoutes, { db: database.db });
  const uploadDeps = {
    db: database.db,
    storage: storage ?? createStorage(config),
    secret: config.sessionSecret,
    now: now ?? (() => new Date()),
  };
  await app.register(uploadsRoutes, { deps: uploadDeps });
  await app.register(generationsRoutes, { deps: { ...uploadDeps, engines: engines ?? createEngineRegistry(config) } });
  await app.register(billingRoutes, { db: database.db, now: uploadDeps.now });
  await app.register(paymentsRoutes, { deps: { db: database.db, config, now: uploadDeps.now, stripe } });
  await app.register(promptsRoutes, {
    deps: { ...uploadDeps, config, detectObjects: detectObjects ?? localDetector, aiRetryDelayMs },
  });
  await app.register(adminRoutes, { db: database.db, storage: uploadDeps.storage });
  await registerClientFiles(app, config);
  return app;
}
