import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { ServiceContext } from './context';
import { registerClientFiles } from './http/client-files';
import { LOG_REDACT_PATHS, registerErrorHandler, serializeError } from './http/error-handler';
import { registerOpenApi } from './http/openapi';
import { registerOverloadGuard } from './http/overload';
import { registerRequestLog } from './http/request-log';
import { registerRequestMetrics } from './http/request-metrics';
import { registerSecurity, serverTimeouts } from './http/security';
import { AppError } from './lib/app-error';
import { isPreviewOnly, PREVIEW_ONLY_NOTE } from '../shared/installation';
import { adminRoutes } from './modules/admin/admin.routes';
import { adminCostsRoutes } from './modules/admin/costs.routes';
import { adminJobsRoutes } from './modules/admin/jobs.routes';
import { tokensRoutes } from './modules/access-tokens/tokens.routes';
import { hasSessionCookie, registerAuthHooks } from './modules/auth/auth.hooks';
import { authRoutes } from './modules/auth/auth.routes';
import { errorReportsRoutes } from './modules/error-reports/error-reports.routes';
import { liveStreamRoutes } from './modules/live-stream/live-stream.routes';
import { notificationsRoutes } from './modules/notifications/notifications.routes';
import { filmsRoutes } from './modules/generations/films.routes';
import { finishRoutes } from './modules/generations/finish.routes';
import { storyboardsRoutes } from './modules/storyboards/storyboards.routes';
import { charactersRoutes } from './modules/characters/characters.routes';
import { generationsRoutes } from './modules/generations/generations.routes';
import { replicateWebhookRoutes } from './engines/replicate-webhook.routes';
import { keepRoutes } from './modules/generations/keep.routes';
import { provenanceRoutes } from './modules/provenance/provenance.routes';
import { adminSafetyRoutes } from './modules/safety/admin-safety.routes';
import { safetyRoutes } from './modules/safety/safety.routes';
import { healthRoutes } from './modules/health/health.routes';
import { mediaLinksRoutes } from './modules/media-links/media-links.routes';
import { metricsRoutes } from './modules/metrics/metrics.routes';
import { creditsRoutes } from './modules/money/credits.routes';
import { paymentsRoutes } from './modules/money/payments.routes';
import { promptsRoutes } from './modules/prompts/prompts.routes';
import { uploadsRoutes } from './modules/uploads/uploads.routes';
import { webhooksRoutes } from './modules/outbound-webhooks/webhooks.routes';
import { textModelOf } from './ai/text-model';
import { followInstallationSettings } from './modules/settings/settings.service';
import { specClientRoutes } from './modules/spec-client/spec-client.routes';
import { settingsRoutes } from './modules/settings/settings.routes';

/** JSON bodies above this are refused with 413 (routes may set a smaller limit). */
export const JSON_BODY_LIMIT = 1024 * 1024;

/** Builds the whole HTTP application on one service context; never listens (main.ts does, tests use inject or listen themselves). */
export async function buildApp(ctx: ServiceContext): Promise<FastifyInstance> {
  const { config } = ctx;
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: LOG_REDACT_PATHS,
      serializers: { err: serializeError },
    },
    bodyLimit: JSON_BODY_LIMIT,
    trustProxy: config.trustProxy,
    ...serverTimeouts(config),
    requestIdHeader: false,
    // Fastify's in/out lines for every request cost more than a polled answer; see registerRequestLog.
    logController: new LogController({ disableRequestLogging: true }),
    // Media capability ids (base64url object keys) are longer than the default 100.
    routerOptions: { maxParamLength: 512 },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  registerRequestLog(app);
  // The providers an administrator connected in the browser, before any request: and again whenever
  // any process saves a change (NOTIFY), so no restart is needed.
  const stopFollowingSettings = await followInstallationSettings(ctx, app.log);
  app.addHook('onClose', stopFollowingSettings);
  if (config.operations.metricsToken) registerRequestMetrics(app, ctx.metrics);

  await registerSecurity(app, config);
  await app.register(cookie);
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) =>
      new AppError(429, 'rate_limited', 'Too many requests. Please wait a moment and try again.', {
        'retry-after': String(Math.ceil(context.ttl / 1000)),
      }),
  });
  // Before the session lookup, which is the first query of every signed-in request.
  registerOverloadGuard(app, () => ctx.database.queued(), config.maxQueuedQueries);
  registerAuthHooks(app, ctx);
  // Before the routes: the OpenAPI document collects them as they are added (and is built lazily).
  await registerOpenApi(app);

  for (const routes of [
    healthRoutes,
    metricsRoutes,
    authRoutes,
    creditsRoutes,
    errorReportsRoutes,
    uploadsRoutes,
    mediaLinksRoutes,
    generationsRoutes,
    replicateWebhookRoutes,
    keepRoutes,
    filmsRoutes,
    finishRoutes,
    storyboardsRoutes,
    charactersRoutes,
    specClientRoutes,
    paymentsRoutes,
    promptsRoutes,
    adminRoutes,
    adminJobsRoutes,
    adminCostsRoutes,
    liveStreamRoutes,
    notificationsRoutes,
    webhooksRoutes,
    tokensRoutes,
    provenanceRoutes,
    safetyRoutes,
    adminSafetyRoutes,
    settingsRoutes,
  ]) {
    await app.register(routes, { ctx });
  }
  await registerClientFiles(app, config, {
    hasSessionCookie,
    installation: () => ({
      previewNote: isPreviewOnly(ctx.engines.list()) ? PREVIEW_ONLY_NOTE : '',
      assist: textModelOf(ctx.config) ? 'model' : 'local',
      retention: ctx.config.retention,
      payments: ctx.config.stripe !== undefined,
    }),
  });
  return app;
}
