import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTokenSchema } from '../shared/api-tokens';
import { createTestApp, injectJson, type TestApp } from '../../tests/support/app';
import { createUser, credentialsOf, signIn, uniqueEmail } from '../../tests/support/factories';
import { CLI_ACTOR, grantCredits } from './modules/admin/admin.service';
import {
  accountDeleteSchema,
  accountNameSchema,
  emailChangeSchema,
  passwordChangeSchema,
  passwordResetConfirmSchema,
  passwordResetRequestSchema,
  verifyEmailSchema,
} from '../shared/accounts';
import { adminUserListQuerySchema, adminUserUpdateSchema } from '../shared/admin';
import { adminJobsQuerySchema } from '../shared/admin-jobs';
import {
  mailSettingsSchema,
  operatorContactBodySchema,
  rulesSettingsSchema,
  providerKeysSchema,
  stripeKeysSchema,
} from '../shared/installation-settings';
import { newAppealSchema, newReportSchema, safetyDecisionSchema } from '../shared/safety';
import { adminCostsQuerySchema } from '../shared/admin-costs';
import { analyzeImageRequestSchema, enhanceTextRequestSchema } from '../shared/ai';
import { loginSchema, registerSchema } from '../shared/auth';
import { errorReportSchema } from '../shared/errors';
import { createFilmSchema } from '../shared/films';
import { finishBodySchema } from '../shared/finishing';
import { renderShotsSchema, storyboardBodySchema } from '../shared/storyboards';
import { createCharacterSchema, updateCharacterSchema } from '../shared/characters';
import { createGenerationSchema, extendGenerationSchema, keepVideoSchema } from '../shared/generations';
import {
  emailNotificationsBodySchema,
  presenceBodySchema,
  pushEndpointBodySchema,
  pushSubscriptionBodySchema,
} from '../shared/notifications';
import { createWebhookSchema } from '../shared/webhooks';
import {
  checkoutSuccessRequestSchema,
  confirmPaymentRequestSchema,
  creditsCheckoutRequestSchema,
  creditsPaymentIntentRequestSchema,
  extraGenerationsRequestSchema,
  fulfillRequestSchema,
} from '../shared/money/payments';
import { costEstimateRequestSchema } from '../shared/money/pricing';
import { CONTROL_CHARACTERS_MESSAGE } from '../shared/text';

/*
 * Hostile input never reaches the database as a 500: a NUL in any text field of any route is a 400
 * from the shared schemas, and values the database cannot store (dates, numbers, forged cursors,
 * rows deleted mid-request) are 4xx answers with stable codes.
 */

let t: TestApp;
let user: Awaited<ReturnType<typeof createUser>>;
let userCookie: string;
let admin: Awaited<ReturnType<typeof createUser>>;
let adminCookie: string;
let target: Awaited<ReturnType<typeof createUser>>;

/** Requests carrying this header lose their user between sign-in and handler: a deletion mid-request. */
const DELETE_USER_HEADER = 'x-test-delete-user-mid-request';

beforeAll(async () => {
  t = await createTestApp({}, (app) => {
    app.addHook('preHandler', async (request) => {
      if (request.headers[DELETE_USER_HEADER] && request.user) {
        await t.db.execute(sql`DELETE FROM users WHERE id = ${request.user.id}`);
      }
    });
    registerDatabaseErrorRoutes(app);
  });
  user = await createUser(t.db, { creditsHundredths: 10_000 });
  userCookie = await signIn(t.app, user);
  admin = await createUser(t.db, { isAdmin: true, email: uniqueEmail('admin') });
  adminCookie = await signIn(t.app, admin);
  target = await createUser(t.db, { firstName: 'Target', lastName: 'Person' });
});
afterAll(async () => {
  await t.close();
});

/** The rows of a raw query (both drivers answer `{ rows }`). */
async function rowsOf<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  const result: unknown = await t.db.execute(query);
  return (result as { rows: T[] }).rows;
}

/** Every row of every table, hashed: proves a refused request wrote nothing anywhere. */
async function databaseFingerprint(): Promise<Record<string, string>> {
  const tables = await rowsOf<{ name: string }>(
    sql`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`,
  );
  const fingerprint: Record<string, string> = {};
  for (const { name } of tables) {
    const [row] = await rowsOf<{ digest: string }>(
      sql`SELECT count(*)::text || ':' || md5(coalesce(string_agg(x::text, ',' ORDER BY x::text), '')) AS digest FROM ${sql.identifier(name)} x`,
    );
    fingerprint[name] = row?.digest ?? '';
  }
  return fingerprint;
}

let remoteCounter = 0;
/** A fresh client address per request, so per-IP rate limits never answer instead of the schema. */
const nextAddress = () => {
  remoteCounter += 1;
  return `10.9.${Math.floor(remoteCounter / 250)}.${(remoteCounter % 250) + 1}`;
};

// --- Every route with a JSON body or a query, and a valid input with every text field filled ---

interface InputRoute {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';
  /** The route as Fastify prints it. */
  route: string;
  url: () => string;
  schema: z.ZodObject;
  in: 'body' | 'query';
  as: 'user' | 'admin';
  valid: () => Record<string, unknown>;
}

const INPUT_ROUTES: InputRoute[] = [
  {
    method: 'PUT',
    route: '/api/admin/settings/mail',
    url: () => '/api/admin/settings/mail',
    schema: mailSettingsSchema,
    in: 'body',
    as: 'admin',
    valid: () => ({ smtpUrl: 'smtp://127.0.0.1:9', from: 'Reelsmith <a@example.com>' }),
  },
  {
    method: 'PUT',
    route: '/api/admin/settings/payments',
    url: () => '/api/admin/settings/payments',
    schema: stripeKeysSchema,
    in: 'body',
    as: 'admin',
    valid: () => ({ secretKey: 'sk_test_123', publishableKey: 'pk_test_123', webhookSecret: 'whsec_123' }),
  },
  {
    method: 'PUT',
    route: '/api/admin/settings/contact',
    url: () => '/api/admin/settings/contact',
    schema: operatorContactBodySchema,
    in: 'body',
    as: 'admin',
    valid: () => ({ contact: 'owner@example.com' }),
  },
  {
    method: 'PUT',
    route: '/api/admin/settings/rules',
    url: () => '/api/admin/settings/rules',
    schema: rulesSettingsSchema,
    in: 'body',
    as: 'admin',
    valid: () => ({
      videoHours: 48,
      keepFor: ['admins'],
      signupCreditsHundredths: 100,
      registrationOpen: true,
      registrationChallenge: false,
    }),
  },
  // Issue 45: the settings page connects a provider (one body shape per provider). A valid body would
  // call the provider, so only the hostile ones are sent.
  ...providerKeysSchema.options.map((schema): InputRoute => ({
    method: 'PUT',
    route: '/api/admin/settings/providers',
    url: () => '/api/admin/settings/providers',
    schema,
    in: 'body',
    as: 'admin',
    valid: () =>
      ({
        fal: { provider: 'fal', apiKey: 'fal-key-123' },
        replicate: { provider: 'replicate', apiToken: 'r8_token' },
        gemini: { provider: 'gemini', apiKey: 'AIza-key' },
        kling: { provider: 'kling', accessKey: 'access', secretKey: 'secret' },
        comfyui: { provider: 'comfyui', url: 'http://127.0.0.1:9/' },
        llm: { provider: 'llm', url: 'http://127.0.0.1:9/v1', model: 'llama3.2-vision', apiKey: 'sk-local' },
      })[schema.shape.provider.value],
  })),
  // Issue 44: reports, appeals and the safety queue's decisions.
  {
    method: 'POST',
    route: '/api/reports',
    url: () => '/api/reports',
    schema: newReportSchema,
    in: 'body',
    as: 'user',
    valid: () => ({
      video: randomUUID(),
      reason: 'other',
      description: 'It is not mine.',
      contact: 'someone@example.com',
      statement: false,
    }),
  },
  {
    method: 'POST',
    route: '/api/safety/takedowns/:reportId/appeal',
    url: () => `/api/safety/takedowns/${randomUUID()}/appeal`,
    schema: newAppealSchema,
    in: 'body',
    as: 'user',
    valid: () => ({ message: 'It was a film scene.' }),
  },
  ...(['take-down', 'dismiss', 'grant'] as const).map((action): InputRoute => ({
    method: 'POST',
    route: `/api/admin/safety/reports/:id/${action}`,
    url: () => `/api/admin/safety/reports/${randomUUID()}/${action}`,
    schema: safetyDecisionSchema,
    in: 'body',
    as: 'admin',
    valid: () => ({ note: 'Decided.' }),
  })),
  // Issue 34: self-service on /account (a session's calls only).
  {
    method: 'PATCH',
    route: '/api/account',
    url: () => '/api/account',
    schema: accountNameSchema,
    in: 'body',
    as: 'user',
    valid: () => ({ firstName: 'Ada', lastName: 'Lovelace' }),
  },
  {
    method: 'POST',
    route: '/api/account/email',
    url: () => '/api/account/email',
    schema: emailChangeSchema,
    in: 'body',
    as: 'user',
    valid: () => ({ email: 'moved@example.com', currentPassword: 'correct horse battery' }),
  },
  {
    method: 'POST',
    route: '/api/account/password',
    url: () => '/api/account/password',
    schema: passwordChangeSchema,
    in: 'body',
    as: 'user',
    valid: () => ({ currentPassword: 'correct horse battery', newPassword: 'a brand new passphrase' }),
  },
  {
    method: 'DELETE',
    route: '/api/account',
    url: () => '/api/account',
    schema: accountDeleteSchema,
    in: 'body',
    as: 'user',
    valid: () => ({ password: 'correct horse battery', email: 'someone@example.com' }),
  },
  // Issue 30: outbound webhooks (a session's call only).
  {
    method: 'POST',
    route: '/api/account/webhooks',
    url: () => '/api/account/webhooks',
    schema: createWebhookSchema,
    in: 'body',
    as: 'user',
    valid: () => ({ url: 'https://hooks.example.com/reelsmith', events: ['video.completed'] }),
  },
  // Issue 29: Extend (the body is checked before the video is looked up).
  {
    method: 'POST',
    route: '/api/video-generation/:id/extend',
    url: () => `/api/video-generation/${randomUUID()}/extend`,
    schema: extendGenerationSchema,
    in: 'body',
    as: 'user',
    valid: () => ({ prompt: 'The boat sails on into the fog', duration: 5, crossfade: 0.5 }),
  },
  // Issue 48: finishing a video, each action's body (checked before the video is looked up).
  ...finishBodySchema.options.map((schema): InputRoute => ({
    method: 'POST',
    route: '/api/video-generation/:id/finish',
    url: () => `/api/video-generation/${randomUUID()}/finish`,
    schema,
    in: 'body',
    as: 'user',
    valid: () => {
      const upload = `/objects/uploads/${randomUUID()}/${randomUUID()}`;
      const action = schema.shape.action.value;
      return {
        upscale: { action, tool: 'local-upscale', resolution: '1080p', fps: 60 },
        'add-sound': { action, tool: 'local-mix', audioFile: upload, prompt: 'Waves on stones' },
        'lip-sync': { action, tool: 'fal-sync-lipsync', audioFile: upload },
        restyle: { action, tool: 'fal-wan-v2v', prompt: 'As a watercolour', imageFile: upload },
      }[action];
    },
  })),
  // Issue 47: a film (the body is checked before its videos are looked up).
  {
    method: 'POST',
    route: '/api/films',
    url: () => '/api/films',
    schema: createFilmSchema,
    in: 'body',
    as: 'user',
    valid: () => ({
      title: 'The lighthouse',
      parts: [{ card: { text: 'The Lighthouse', background: '#112233' } }, { video: randomUUID(), caption: 'At dusk' }],
      transitions: ['crossfade'],
      bedFile: `/objects/uploads/${randomUUID()}/${randomUUID()}`,
    }),
  },
  // Issue 47: storyboards (the body is checked before the board is looked up).
  ...(['POST', 'PUT'] as const).map((method): InputRoute => ({
    method,
    route: method === 'POST' ? '/api/storyboards' : '/api/storyboards/:id',
    url: () => (method === 'POST' ? '/api/storyboards' : `/api/storyboards/${randomUUID()}`),
    schema: storyboardBodySchema,
    in: 'body',
    as: 'user',
    valid: () => ({
      name: 'The lighthouse',
      shots: [{ id: randomUUID(), description: 'The keeper climbs the stairs', caption: 'Night falls' }],
      titleCard: { text: 'The lighthouse' },
      bedFile: `/objects/uploads/${randomUUID()}/${randomUUID()}`,
    }),
  })),
  // Issue 47: characters (the body is checked before its uploads, or the character, are looked up).
  {
    method: 'POST',
    route: '/api/characters',
    url: () => '/api/characters',
    schema: createCharacterSchema,
    in: 'body',
    as: 'user',
    valid: () => ({
      name: 'Captain Mira',
      description: 'A lighthouse keeper',
      imageFiles: [`/objects/uploads/${randomUUID()}/${randomUUID()}`],
    }),
  },
  {
    method: 'PUT',
    route: '/api/characters/:id',
    url: () => `/api/characters/${randomUUID()}`,
    schema: updateCharacterSchema,
    in: 'body',
    as: 'user',
    valid: () => ({ name: 'Captain Mira', description: 'A lighthouse keeper' }),
  },
  // Issue 32: notifications.
  {
    method: 'POST',
    route: '/api/notifications/push-subscriptions',
    url: () => '/api/notifications/push-subscriptions',
    schema: pushSubscriptionBodySchema,
    in: 'body',
    as: 'user',
    valid: () => ({
      endpoint: 'https://fcm.googleapis.com/fcm/send/abc',
      keys: { p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(22) },
    }),
  },
  {
    method: 'DELETE',
    route: '/api/notifications/push-subscriptions',
    url: () => '/api/notifications/push-subscriptions',
    schema: pushEndpointBodySchema,
    in: 'body',
    as: 'user',
    valid: () => ({ endpoint: 'https://fcm.googleapis.com/fcm/send/abc' }),
  },
  // Issue 30: personal access tokens (a session's call only).
  {
    method: 'POST',
    route: '/api/account/tokens',
    url: () => '/api/account/tokens',
    schema: createTokenSchema,
    in: 'body',
    as: 'user',
    valid: () => ({ name: 'Nightly renders', scopes: ['videos:read'], expiresAt: '2099-01-01T00:00:00Z' }),
  },
  {
    method: 'POST',
    route: '/api/auth/password-reset',
    url: () => '/api/auth/password-reset',
    schema: passwordResetRequestSchema,
    in: 'body',
    as: 'user',
    valid: () => ({ email: user.email }),
  },
  {
    method: 'POST',
    route: '/api/auth/password-reset/confirm',
    url: () => '/api/auth/password-reset/confirm',
    schema: passwordResetConfirmSchema,
    in: 'body',
    as: 'user',
    valid: () => ({ token: 'not-a-real-token', password: 'a long password' }),
  },
  ...(['/api/auth/verify-email', '/api/auth/verify-email/form'] as const).map((route): InputRoute => ({
    method: 'POST',
    route,
    url: () => route,
    schema: verifyEmailSchema,
    in: 'body',
    as: 'user',
    valid: () => ({ token: 'not-a-real-token' }),
  })),
  {
    method: 'GET',
    route: '/api/auth/verify-email',
    url: () => '/api/auth/verify-email',
    schema: verifyEmailSchema,
    in: 'query',
    as: 'user',
    valid: () => ({ token: 'not-a-real-token' }),
  },
  {
    method: 'POST',
    route: '/api/auth/register',
    url: () => '/api/auth/register',
    schema: registerSchema,
    in: 'body',
    as: 'user',
    valid: () => ({ email: uniqueEmail('nul'), password: 'a long password', firstName: 'Ada', lastName: 'Lovelace' }),
  },
  {
    method: 'POST',
    route: '/api/auth/login',
    url: () => '/api/auth/login',
    schema: loginSchema,
    in: 'body',
    as: 'user',
    valid: () => credentialsOf(user),
  },
  {
    method: 'GET',
    route: '/api/admin/users',
    url: () => '/api/admin/users',
    schema: adminUserListQuerySchema,
    in: 'query',
    as: 'admin',
    valid: () => ({ q: 'test', sort: 'createdAt', order: 'desc' }),
  },
  {
    method: 'GET',
    route: '/api/admin/jobs',
    url: () => '/api/admin/jobs',
    schema: adminJobsQuerySchema,
    in: 'query',
    as: 'admin',
    valid: () => ({ user: 'test', model: 'local', status: 'failed' }),
  },
  {
    method: 'PATCH',
    route: '/api/admin/users/:id',
    url: () => `/api/admin/users/${target.id}`,
    schema: adminUserUpdateSchema,
    in: 'body',
    as: 'admin',
    valid: () => ({
      firstName: 'Renamed',
      lastName: 'Person',
      email: target.email,
      availableCredits: 5,
      totalCreditsUsed: 0,
      subscriptionStatus: 'inactive',
    }),
  },
  {
    method: 'POST',
    route: '/api/errors/report',
    url: () => '/api/errors/report',
    schema: errorReportSchema,
    in: 'body',
    as: 'user',
    valid: () => ({
      message: 'Boom',
      stack: 'Error: Boom\n\tat render',
      componentStack: '\n    at App',
      url: 'http://localhost:3000/dashboard',
      userAgent: 'Mozilla/5.0',
      timestamp: new Date().toISOString(),
      errorId: 'err_1700000000000_abc123',
    }),
  },
  {
    method: 'POST',
    route: '/api/video-generation',
    url: () => '/api/video-generation',
    schema: createGenerationSchema,
    in: 'body',
    as: 'user',
    valid: () => ({
      prompt: 'A cat on a skateboard',
      jsonPrompt: '{"aspectRatio":"16:9"}',
      imageFile: '/objects/uploads/none',
      videoFile: '/objects/uploads/none',
      audioFile: '/objects/uploads/none',
      model: 'local',
    }),
  },
  {
    method: 'POST',
    route: '/api/prompts/enhance-text',
    url: () => '/api/prompts/enhance-text',
    schema: enhanceTextRequestSchema,
    in: 'body',
    as: 'user',
    valid: () => ({ userPrompt: 'A cat', style: 'cinematic', duration: 'medium', mood: 'calm' }),
  },
  {
    method: 'POST',
    route: '/api/prompts/analyze-image',
    url: () => '/api/prompts/analyze-image',
    schema: analyzeImageRequestSchema,
    in: 'body',
    as: 'user',
    valid: () => ({ imageUrl: '/objects/uploads/none', analysisType: 'comprehensive' }),
  },
  {
    method: 'POST',
    route: '/api/credits/estimate',
    url: () => '/api/credits/estimate',
    schema: costEstimateRequestSchema,
    in: 'body',
    as: 'user',
    valid: () => ({ userPlan: 'JUST_FOR_FUN', model: 'local' }),
  },
  // Payments: the schema answers before the handler's 401/503 (this server has no Stripe keys).
  {
    method: 'POST',
    route: '/api/credits/checkout-success',
    url: () => '/api/credits/checkout-success',
    schema: checkoutSuccessRequestSchema,
    in: 'body',
    as: 'user',
    valid: () => ({ sessionId: 'cs_test_123' }),
  },
  {
    method: 'POST',
    route: '/api/credits/fulfill',
    url: () => '/api/credits/fulfill',
    schema: fulfillRequestSchema,
    in: 'body',
    as: 'user',
    valid: () => ({ paymentIntentId: 'pi_test_123', credits: 10 }),
  },
  {
    method: 'POST',
    route: '/api/payments/extra-generations',
    url: () => '/api/payments/extra-generations',
    schema: extraGenerationsRequestSchema,
    in: 'body',
    as: 'user',
    valid: () => ({ package: 'small' }),
  },
  {
    method: 'POST',
    route: '/api/payments/confirm',
    url: () => '/api/payments/confirm',
    schema: confirmPaymentRequestSchema,
    in: 'body',
    as: 'user',
    valid: () => ({ paymentIntentId: 'pi_test_123' }),
  },
];

/** Routes whose JSON body (or query) holds numbers only (a text field added later must move to INPUT_ROUTES). */
const NUMBER_BODY_ROUTES: { route: string; schema: z.ZodObject }[] = [
  // Issue 31: the cost view's query is `days` alone (text or a NUL there is a 400 like any bad number).
  { route: 'GET /api/admin/costs', schema: adminCostsQuerySchema },
  { route: 'PUT /api/notifications/email', schema: emailNotificationsBodySchema },
  { route: 'POST /api/notifications/presence', schema: presenceBodySchema },
  { route: 'POST /api/credits/checkout', schema: creditsCheckoutRequestSchema },
  { route: 'POST /api/credits/payment-intent', schema: creditsPaymentIntentRequestSchema },
  // Issue 32: keep a video ({ keep: boolean }; the id in the path is uuid-checked).
  { route: 'POST /api/video-generation/:id/keep', schema: keepVideoSchema },
  // Issue 47: render a shot, or every missing one ({ consentToLikeness }; the ids in the path are uuid-checked).
  { route: 'POST /api/storyboards/:id/shots/:shotId/takes', schema: renderShotsSchema },
  { route: 'POST /api/storyboards/:id/render', schema: renderShotsSchema },
];

/**
 * Routes whose query is checked by a signature (HMAC over the id and expiry) before anything else:
 * a NUL there is a forged link, answered 4xx without reaching the database.
 */
const SIGNED_QUERY_ROUTES = ['GET /api/media/:id', 'PUT /api/uploads/:id', 'POST /api/uploads/:id'];

/** Routes that read no JSON body and no query (path ids are uuid-checked; the webhook verifies its signature). */
const NO_INPUT_ROUTES = [
  // Issue 48: the finishing tools.
  'GET /api/finishing',
  // Issue 47: storyboards by their id (uuid-checked); the export reads no body.
  'GET /api/storyboards',
  'GET /api/characters',
  'DELETE /api/characters/:id',
  'GET /api/storyboards/:id',
  'DELETE /api/storyboards/:id',
  'POST /api/storyboards/:id/export',
  // Issue 45: the settings page (the provider in the path is checked against the list of providers).
  'GET /api/admin/settings',
  'DELETE /api/admin/settings/providers/:provider',
  'DELETE /api/admin/settings/payments',
  'DELETE /api/admin/settings/mail',
  'GET /api/notifications',
  // Issue 34: the pending email change, and cancelling it.
  'GET /api/account/email',
  'DELETE /api/account/email',
  'GET /api/account/webhooks',
  'DELETE /api/account/webhooks/:id',
  'POST /api/account/webhooks/:id/test',
  'GET /api/account/webhooks/:id/deliveries',
  'POST /api/account/webhooks/:id/deliveries/:deliveryId/redeliver',
  'GET /',
  'GET /healthz',
  // Issue 31: reads only its Authorization header (a bearer token compared as a digest).
  'GET /metrics',
  'GET /readyz',
  'POST /api/auth/logout',
  'POST /api/auth/logout-all',
  'GET /api/auth/user',
  'GET /api/auth/challenge',
  'GET /api/auth/google',
  'GET /api/login',
  'GET /api/auth/providers',
  'GET /api/account/sign-ins',
  'GET /api/account/security-events',
  'POST /api/auth/verify-email/resend',
  'DELETE /api/account/identities/:id',
  // Issue 45: the tour's id in the path is one of two names (anything else is a 400).
  'PUT /api/account/tours/:tour',
  // The provider's answer (code, state, iss) is checked by openid-client against the signed flow cookie; see external-sign-in.test.ts.
  'GET /api/callback',
  'GET /api/auth/google/callback',
  'GET /api/logout',
  'POST /api/logout',
  'GET /api/admin/stats',
  'DELETE /api/admin/users/:id',
  // Issue 31: the jobs console's actions read only the job id (a uuid) from the path.
  'POST /api/admin/jobs/:id/cancel',
  'POST /api/admin/jobs/:id/rerun',
  'POST /api/admin/jobs/:id/refund',
  // Issue 43: approve or reject a job held for review, by its id alone.
  'POST /api/admin/jobs/:id/approve',
  'POST /api/admin/jobs/:id/reject',
  // Issue 44: the watch page (a signed token in the path), the owner's takedowns, the queue, owner actions.
  'GET /api/watch/:token',
  'GET /api/safety/takedowns',
  'GET /api/admin/safety',
  'POST /api/admin/safety/users/:id/warn',
  'POST /api/admin/safety/users/:id/suspend',
  'POST /api/admin/safety/users/:id/unsuspend',
  'GET /api/user/status',
  'GET /api/user/generation-status',
  'GET /api/credits/balance',
  // Issue 28: the whole balance in one answer (the same as the live 'balance' event).
  'GET /api/user/balance',
  'POST /api/objects/upload',
  'GET /api/objects/uploads/:userId/:id',
  'POST /api/files/cleanup',
  'GET /api/models',
  'GET /api/video-generation',
  'DELETE /api/video-generation/:id',
  'GET /api/video-generation-jobs',
  'GET /api/video-generation-jobs/recent',
  'GET /api/payments/config',
  'POST /api/payments/start-subscription',
  'GET /api/payments/subscription',
  'POST /api/payments/cancel-subscription',
  'POST /api/payments/billing-portal',
  'GET /api/payments/receipts',
  'POST /api/stripe/webhook',
  // Issue 21: an id in the path only; Replicate's raw, signature-checked body (401 unless signed).
  'POST /api/video-generation/:id/last-frame',
  'POST /api/webhooks/replicate',
  // Issue 18: the event stream reads only the Last-Event-ID header (anything not a known id of the user's gets a fresh snapshot).
  'GET /api/events',
  // Issue 20: the app shell by its own name (the service worker's navigation fallback).
  'GET /index.html',
  // Issue 30: the token list and a token id in the path; a file in one request (a raw body or a form, checked as every upload).
  'GET /api/account/tokens',
  'DELETE /api/account/tokens/:id',
  'PUT /api/uploads',
  'POST /api/uploads',
  // Issue 42: a file as the body, checked as every upload (size, rate, sniffed type); content-credentials.test.ts.
  'POST /api/provenance/verify',
  // Issue 30: the OpenAPI document and its reference page (Swagger UI's page, settings, document and its own files).
  'GET /api/openapi.json',
  'GET /api/docs',
  'GET /api/docs/',
  'GET /api/docs/static/index.html',
  'GET /api/docs/static/swagger-initializer.js',
  'GET /api/docs/*',
  'GET /api/docs/json',
  'GET /api/docs/yaml',
];

/** "METHOD /path" of every route the app answers, read from Fastify's own route tree. */
function routesOf(app: FastifyInstance): string[] {
  const routes: string[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const branch = line.search(/[├└]── /);
    if (branch < 0) continue;
    const depth = Math.floor(branch / 4);
    const [, segment = '', methods = ''] = /^(.*?)(?: \(([^)]*)\))?$/.exec(line.slice(branch + 4)) ?? [];
    stack.length = depth;
    stack.push(segment);
    const path = stack.join('').replace(/^\/*/, '/');
    for (const method of methods.split(', ').filter((m) => m && m !== 'HEAD')) routes.push(`${method} ${path}`);
  }
  return routes;
}

/**
 * The fields of a request schema a client sends as strings (free text, enums, formats), and lists of
 * strings (`list`: the NUL goes into the first item).
 */
function stringFields(schema: z.ZodObject): { name: string; freeText: boolean; list: boolean }[] {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, unknown>;
  };
  return Object.entries(json.properties ?? {})
    .map(([name, property]) => ({ name, text: JSON.stringify(property) }))
    .filter(({ text }) => text.includes('"type":"string"') || text.includes('"string"'))
    .map(({ name, text }) => ({
      name,
      freeText: !/"(enum|pattern|format|const)"/.test(text),
      list: text.includes('"type":"array"') && text.includes('"items":'),
    }));
}

const withNul = (value: unknown) => {
  const text = typeof value === 'string' && value.length > 0 ? value : 'text';
  return `${text.slice(0, 1)}\u0000${text.slice(1)}`;
};

function send(route: InputRoute, input: Record<string, unknown>) {
  const cookie = route.as === 'admin' ? adminCookie : userCookie;
  if (route.in === 'query') {
    const query = new URLSearchParams(Object.entries(input).map(([k, v]) => [k, String(v)])).toString();
    return injectJson(t.app, route.method, `${route.url()}?${query}`, { cookie, remoteAddress: nextAddress() });
  }
  return injectJson(t.app, route.method, route.url(), { cookie, body: input, remoteAddress: nextAddress() });
}

describe('a NUL character in any text field of any route', () => {
  it('knows every route of the app: each has its input checked here, or reads none', () => {
    const known = new Set([
      ...INPUT_ROUTES.map((r) => `${r.method} ${r.route}`),
      ...NUMBER_BODY_ROUTES.map((r) => r.route),
      ...SIGNED_QUERY_ROUTES,
      ...NO_INPUT_ROUTES,
    ]);
    const unknown = routesOf(t.app).filter((route) => !known.has(route) && !route.includes(' /test/'));
    expect(unknown, 'a new route: add it to INPUT_ROUTES (JSON body or query) or NO_INPUT_ROUTES').toEqual([]);
    for (const { route, schema } of NUMBER_BODY_ROUTES) expect(stringFields(schema), route).toEqual([]);
  });

  for (const route of INPUT_ROUTES) {
    it(`is a 400 naming the field, writing nothing: ${route.method} ${route.route}`, async () => {
      const fields = stringFields(route.schema);
      expect(fields.length).toBeGreaterThan(0);
      for (const field of fields) {
        const valid = route.valid();
        const before = await databaseFingerprint();
        const value = valid[field.name];
        const hostile = field.list ? [withNul(Array.isArray(value) ? value[0] : undefined)] : withNul(value);
        const response = await send(route, { ...valid, [field.name]: hostile });
        expect(response.statusCode, `${field.name}: ${response.body}`).toBe(400);
        const body = response.json<{ code: string; message: string }>();
        expect(body.code).toBe('validation_failed');
        const where = field.list ? `${field.name}.0` : field.name;
        expect(body.message).toContain(field.freeText ? `${where}: ${CONTROL_CHARACTERS_MESSAGE}` : `${where}: `);
        expect(await databaseFingerprint()).toEqual(before);
      }
    });
  }

  it('covers the text fields the issue names', () => {
    const covered = INPUT_ROUTES.flatMap((route) => stringFields(route.schema).map((f) => `${route.route} ${f.name}`));
    for (const field of [
      '/api/auth/register firstName',
      '/api/auth/register email',
      '/api/auth/login email',
      '/api/admin/users q',
      '/api/admin/users/:id lastName',
      '/api/errors/report stack',
      '/api/video-generation prompt',
      '/api/video-generation jsonPrompt',
      '/api/prompts/enhance-text userPrompt',
      '/api/credits/fulfill paymentIntentId',
    ]) {
      expect(covered).toContain(field);
    }
  });

  it('is a 4xx on routes whose query a signature protects', async () => {
    const id = Buffer.from('outputs/x.mp4').toString('base64url');
    for (const [method, url] of [
      ['GET', `/api/media/${id}?type=video%00&exp=1&sig=a%00b`],
      ['PUT', `/api/uploads/${randomUUID()}?exp=1%00&sig=a%00b`],
      ['POST', `/api/uploads/${randomUUID()}?exp=1%00&sig=a%00b`],
    ] as const) {
      const response = await t.app.inject({ method, url, headers: { cookie: userCookie }, payload: 'x' });
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
    }
  });

  it('keeps tabs and line breaks in multi-line text, and refuses them in single-line fields', async () => {
    const report = {
      ...INPUT_ROUTES.find((r) => r.route === '/api/errors/report')?.valid(),
      message: 'Line 1\r\n\tLine 2',
    };
    expect(
      (await injectJson(t.app, 'POST', '/api/errors/report', { body: report, remoteAddress: nextAddress() }))
        .statusCode,
    ).toBe(202);
    const register = await injectJson(t.app, 'POST', '/api/auth/register', {
      body: { email: uniqueEmail('tab'), password: 'a long password', firstName: 'Ada\tLovelace' },
      remoteAddress: nextAddress(),
    });
    expect(register.statusCode).toBe(400);
    expect(register.json().message).toBe(`firstName: ${CONTROL_CHARACTERS_MESSAGE}`);
  });
});

describe('values the database cannot store', () => {
  it('refuses a NUL hidden in the advanced settings JSON (an escaped \\u0000 the database refuses in jsonb)', async () => {
    const before = await databaseFingerprint();
    const response = await injectJson(t.app, 'POST', '/api/video-generation', {
      cookie: userCookie,
      body: { prompt: 'A cat', model: 'local', jsonPrompt: '{"negativePrompt":"blur\\u0000ry"}' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: 'invalid_advanced_settings',
      message: `Advanced settings: negativePrompt ${CONTROL_CHARACTERS_MESSAGE}`,
    });
    expect(await databaseFingerprint()).toEqual(before);
  });

  it('refuses error reports dated outside 2000-2099 (year 0 is no date PostgreSQL knows), and keeps one inside', async () => {
    const valid = INPUT_ROUTES.find((r) => r.route === '/api/errors/report')?.valid() ?? {};
    for (const timestamp of [
      '0000-01-01T00:00:00Z',
      '1999-12-31T23:59:59Z',
      '2100-01-01T00:00:00Z',
      '9999-12-31T23:59:59+14:00',
    ]) {
      const before = await databaseFingerprint();
      const response = await injectJson(t.app, 'POST', '/api/errors/report', {
        body: { ...valid, timestamp },
        remoteAddress: nextAddress(),
      });
      expect(response.statusCode, timestamp).toBe(400);
      expect(response.json()).toEqual({
        code: 'validation_failed',
        message: 'timestamp: must be a date from the year 2000 to 2099',
      });
      expect(await databaseFingerprint()).toEqual(before);
    }
    const kept = await injectJson(t.app, 'POST', '/api/errors/report', {
      body: { ...valid, timestamp: '2000-01-01T00:00:00Z' },
      remoteAddress: nextAddress(),
    });
    expect(kept.statusCode).toBe(202);
  });

  it('answers a forged admin list cursor with 400 invalid_cursor, whatever is inside it', async () => {
    const cursor = (...parts: unknown[]) => Buffer.from(JSON.stringify(parts)).toString('base64url');
    const id = randomUUID();
    const forged: [string, string][] = [
      ['createdAt', 'abc'],
      ['createdAt', Buffer.from('not json').toString('base64url')],
      ['createdAt', cursor('createdAt', 'yesterday', id)],
      ['createdAt', cursor('createdAt', '0000-01-01 00:00:00+00', id)],
      ['createdAt', cursor('createdAt', '2026-02-30 10:00:00+00', id)],
      ['createdAt', cursor('createdAt', '2026-01-01 24:00:00+00', id)],
      ['createdAt', cursor('createdAt', '2026-01-01 10:00:00+00', '------------------------------------')],
      ['createdAt', cursor('createdAt', '2026-01-01 10:00:00+00', 42)],
      ['createdAt', cursor('email', 'a@example.com', id)],
      ['createdAt', cursor('2026-01-01 10:00:00+00', id)],
      ['email', cursor('email', 'a\u0000b', id)],
      ['availableCredits', cursor('availableCredits', '1e5', id)],
      ['availableCredits', cursor('availableCredits', '99999999999999999999', id)],
      ['creditsLast30Days', cursor('creditsLast30Days', '12abc', id)],
      ['totalLifetimeCredits', cursor('totalLifetimeCredits', null, id)],
    ];
    for (const [sort, value] of forged) {
      const response = await injectJson(t.app, 'GET', `/api/admin/users?sort=${sort}&cursor=${value}`, {
        cookie: adminCookie,
      });
      expect(response.statusCode, `${sort} ${value}: ${response.body}`).toBe(400);
      expect(response.json().code).toBe('invalid_cursor');
    }
  });

  it('keeps credit totals past 21 million credits: 64-bit counters, and grants capped per change', async () => {
    const rich = await createUser(t.db, { email: uniqueEmail('rich') });
    const payload = (availableCredits: number) => ({
      firstName: rich.firstName,
      lastName: rich.lastName,
      email: rich.email,
      availableCredits,
      totalCreditsUsed: 10_000_000,
      subscriptionStatus: 'inactive',
    });
    // Each raise adds 10 million to the lifetime total: 30 million is 3,000,000,000 hundredths, past 2^31.
    for (const credits of [10_000_000, 0, 10_000_000, 0, 10_000_000]) {
      const response = await injectJson(t.app, 'PATCH', `/api/admin/users/${rich.id}`, {
        cookie: adminCookie,
        body: payload(credits),
      });
      expect(response.statusCode, response.body).toBe(200);
    }
    await grantCredits(t.ctx, CLI_ACTOR, rich.email, 10_000_000);
    await grantCredits(t.ctx, CLI_ACTOR, rich.email, 0.29);
    await expect(grantCredits(t.ctx, CLI_ACTOR, rich.email, 10_000_001)).rejects.toMatchObject({
      status: 400,
      code: 'invalid_amount',
    });

    const list = await injectJson(t.app, 'GET', `/api/admin/users?q=${encodeURIComponent(rich.email)}`, {
      cookie: adminCookie,
    });
    expect(list.json()[0]).toMatchObject({
      availableCredits: 20_000_000.29,
      totalCreditsUsed: 10_000_000,
      totalLifetimeCredits: 40_000_000.29,
      creditsLast30Days: 40_000_000.29,
    });
    const stats = await injectJson(t.app, 'GET', '/api/admin/stats', { cookie: adminCookie });
    expect(stats.json().activeCredits).toBeGreaterThanOrEqual(20_000_000.29);

    // Cursors over 64-bit sort values page on: the richest first, then the next.
    for (const sort of ['availableCredits', 'totalLifetimeCredits', 'creditsLast30Days', 'totalCreditsUsed']) {
      const first = await injectJson(t.app, 'GET', `/api/admin/users?sort=${sort}&order=desc&limit=1`, {
        cookie: adminCookie,
      });
      expect(first.json()[0].email, sort).toBe(rich.email);
      const next = await injectJson(
        t.app,
        'GET',
        `/api/admin/users?sort=${sort}&order=desc&limit=1&cursor=${String(first.headers['x-next-cursor'])}`,
        {
          cookie: adminCookie,
        },
      );
      expect(next.statusCode, next.body).toBe(200);
      expect(next.json()[0].email).not.toBe(rich.email);
    }
  });

  it('answers 404 when the signed-in user is deleted mid-request, writing nothing', async () => {
    const doomed = await createUser(t.db);
    const cookie = await signIn(t.app, doomed);
    const report = INPUT_ROUTES.find((r) => r.route === '/api/errors/report')?.valid();
    const response = await injectJson(t.app, 'POST', '/api/errors/report', {
      cookie,
      body: report,
      headers: { [DELETE_USER_HEADER]: '1' },
      remoteAddress: nextAddress(),
    });
    expect(response.statusCode, response.body).toBe(404);
    expect(response.json()).toEqual({
      code: 'reference_not_found',
      message: 'Something this request refers to no longer exists.',
    });
    const [reports] = await rowsOf<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM error_reports WHERE user_id = ${doomed.id}`,
    );
    expect(reports?.n).toBe(0);
  });
});

// --- The error handler's answer to each kind of database error, thrown as Drizzle wraps it or bare ---

const DATABASE_ERRORS = [
  { name: 'text with a NUL (22021)', status: 400, code: 'invalid_text', query: () => sql`SELECT ${'a\u0000b'}::text` },
  {
    name: 'JSON with a NUL (22P05)',
    status: 400,
    code: 'invalid_text',
    query: () => sql`SELECT ${'{"a":"\\u0000"}'}::jsonb`,
  },
  {
    name: 'number out of range (22003)',
    status: 400,
    code: 'value_out_of_range',
    query: () => sql`SELECT ${String(2 ** 31)}::int`,
  },
  {
    name: 'year 0 (22008)',
    status: 400,
    code: 'invalid_date',
    query: () => sql`SELECT ${'0000-01-01T00:00:00Z'}::timestamptz`,
  },
  {
    name: 'invalid text representation (22P02)',
    status: 400,
    code: 'invalid_value',
    query: () => sql`SELECT ${'abc'}::uuid`,
  },
  {
    name: 'string too long (22001)',
    status: 400,
    code: 'value_too_long',
    query: () => sql`INSERT INTO test_short (v) VALUES (${'abc'})`,
  },
  {
    name: 'another data exception (22012)',
    status: 400,
    code: 'invalid_value',
    query: () => sql`SELECT 1 / ${'0'}::int`,
  },
  {
    name: 'not null (23502)',
    status: 400,
    code: 'missing_value',
    query: () => sql`INSERT INTO users (email) VALUES (NULL)`,
  },
  {
    name: 'foreign key on insert (23503)',
    status: 404,
    code: 'reference_not_found',
    query: () => sql`INSERT INTO sessions (id, user_id, expires_at) VALUES (${randomUUID()}, ${randomUUID()}, now())`,
  },
  {
    name: 'foreign key on delete (23503)',
    status: 409,
    code: 'still_referenced',
    query: () => sql`DELETE FROM test_parent`,
  },
  {
    name: 'unique (23505)',
    status: 409,
    code: 'conflict',
    query: () => sql`INSERT INTO users (email) VALUES (${admin.email})`,
  },
  {
    name: 'check (23514)',
    status: 409,
    code: 'conflict',
    query: () => sql`UPDATE users SET credits_hundredths = -1 WHERE id = ${target.id}`,
  },
];

function registerDatabaseErrorRoutes(app: FastifyInstance): void {
  app.get<{ Params: { index: string; form: string } }>('/test/database-error/:index/:form', async (request) => {
    const query = (
      DATABASE_ERRORS[Number(request.params.index)] ?? { query: () => sql`SELECT * FROM no_such_table` }
    ).query();
    try {
      await t.db.execute(query);
    } catch (error) {
      // 'wrapped' is what Drizzle throws; 'direct' is the driver's own error inside it.
      throw request.params.form === 'direct' ? (error as { cause: unknown }).cause : error;
    }
    return { ok: true };
  });
}

describe('database errors that mean bad input', () => {
  beforeAll(async () => {
    await t.db.execute(sql`CREATE TABLE test_short (v varchar(2))`);
    await t.db.execute(sql`CREATE TABLE test_parent (id int PRIMARY KEY)`);
    await t.db.execute(sql`CREATE TABLE test_child (parent_id int REFERENCES test_parent (id))`);
    await t.db.execute(sql`INSERT INTO test_parent VALUES (1)`);
    await t.db.execute(sql`INSERT INTO test_child VALUES (1)`);
  });

  DATABASE_ERRORS.forEach((kind, index) => {
    it(`answers ${kind.status} ${kind.code} to ${kind.name}, wrapped by Drizzle or thrown directly`, async () => {
      for (const form of ['wrapped', 'direct']) {
        const response = await t.app.inject({ method: 'GET', url: `/test/database-error/${index}/${form}` });
        expect(response.statusCode, `${form}: ${response.body}`).toBe(kind.status);
        expect(response.json().code).toBe(kind.code);
        expect(response.json().message).toMatch(/^[A-Z].*\.$/);
      }
    });
  });

  it('still answers any other database error with a generic 500', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/test/database-error/999/wrapped' });
    expect(response.statusCode).toBe(500);
    expect(response.json().code).toBe('internal_error');
  });
});
