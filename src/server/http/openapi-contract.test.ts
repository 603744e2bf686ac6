import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, listenLocally, sessionCookieFrom, type TestApp } from '../../../tests/support/app';
import { createUser, credentialsOf, signedInAdmin, signIn, uploadFile } from '../../../tests/support/factories';
import { makeMediaFixtures } from '../../../tests/support/media';
import {
  type Caller,
  callerOf,
  type Contract,
  contractOf,
  EXAMPLE,
  type OpenApiDocument,
} from '../../../tests/support/openapi-contract';
import { startWebhookReceiver, type WebhookReceiver } from '../../../tests/support/webhook-receiver';
import { TOKEN_SCOPES } from '../../shared/api-tokens';
import { uploads } from '../db/schema';
import { mediaUrl } from '../storage/media-links';
import { OPENAPI_URL } from './openapi';

// Every operation of the OpenAPI document called at least once, each answer checked against the
// document (tests/support/openapi-contract.ts: status, headers, body). Calls run in order and share
// one app: a user with a token of every scope, an administrator, and a local webhook receiver.
// Where the success of a call needs the outside world (Stripe, a provider's signed callback, an
// SMTP or AI provider), the call gets the answer this keyless server gives, which the document must
// list as well; those flows are tested end to end beside their modules against stand-ins.

const ASTRONAUT = readFileSync(path.resolve(import.meta.dirname, '../../../tests/fixtures/astronaut.png'));

let t: TestApp;
let contract: Contract;
let document: OpenApiDocument;
let receiver: WebhookReceiver;
let cookie: string;
let adminCookie: string;
let token: string;
let sound: Buffer;
let call: Caller['call'];
let called: Caller['called'];

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  t = await createTestApp({ WEBHOOK_ALLOWED_PRIVATE_HOSTS: receiver.hostPort });
  document = (await t.app.inject({ method: 'GET', url: OPENAPI_URL })).json<OpenApiDocument>();
  contract = contractOf(document);
  ({ call, called } = callerOf(t.app, document, contract));
  const user = await createUser(t.db, { creditsHundredths: 100_000 });
  cookie = await signIn(t.app, user);
  ({ cookie: adminCookie } = await signedInAdmin(t.app, t.db));
  sound = (await makeMediaFixtures()).audio;
  // Opening the embedded database compiles PGlite first: slow on a busy machine.
}, 180_000);
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

describe('the answers of every documented route keep to the OpenAPI document', () => {
  it('sign-in and the account', async () => {
    const created = await call('POST /api/auth/register', { body: EXAMPLE, status: 201 });
    const newcomer = sessionCookieFrom(created);
    await call('POST /api/auth/register', { body: EXAMPLE, status: 409 });
    await call('POST /api/auth/login', { body: { email: 'nobody@example.com', password: 'wrong password' } });
    const spare = await createUser(t.db);
    const spareCookie = sessionCookieFrom(
      await call('POST /api/auth/login', { body: credentialsOf(spare), status: 200 }),
    );
    await call('POST /api/auth/logout', { cookie: spareCookie, status: 200 });
    await call('POST /api/auth/logout-all', { cookie: await signIn(t.app, spare), status: 200 });
    await call('GET /api/auth/providers', { status: 200 });
    await call('POST /api/auth/password-reset', { body: { email: spare.email } });
    await call('POST /api/auth/password-reset/confirm', {
      body: { token: 'not-a-token', password: 'a long new passphrase' },
      status: 400,
    });
    await call('GET /api/auth/challenge');
    await call('POST /api/auth/verify-email', { body: { token: 'not-a-token' }, status: 400 });
    await call('POST /api/auth/verify-email/resend', { cookie: newcomer, status: 202 });

    await call('GET /api/account/security-events', { cookie, status: 200 });
    await call('GET /api/account/sign-ins', { cookie, status: 200 });
    await call('PUT /api/account/tours/{tour}', { cookie, params: { tour: 'first-time' }, status: 200 });
    await call('DELETE /api/account/identities/{id}', { cookie, status: 404 });
    await call('PATCH /api/account', { cookie, body: EXAMPLE, status: 200 });
    await call('GET /api/account/email', { cookie, status: 200 });
    await call('POST /api/account/email', { cookie, body: { email: 'ada@example.org', currentPassword: 'x' } });
    await call('DELETE /api/account/email', { cookie, status: 200 });
    const mover = await createUser(t.db);
    await call('POST /api/account/password', {
      cookie: await signIn(t.app, mover),
      body: { currentPassword: mover.password, newPassword: 'another long passphrase' },
      status: 200,
    });
    await call('DELETE /api/account', { cookie: newcomer, body: { password: 'wrong' }, status: 403 });
    await call('DELETE /api/account', {
      cookie: await signIn(t.app, spare),
      body: { password: spare.password },
      status: 200,
    });
  }, 120_000);

  it('access tokens, and what a token may and may not do', async () => {
    const created = await call('POST /api/account/tokens', {
      cookie,
      body: { name: 'contract', scopes: [...TOKEN_SCOPES] },
      status: 201,
    });
    token = created.json<{ token: string }>().token;
    const spare = await call('POST /api/account/tokens', { cookie, body: EXAMPLE, status: 201 });
    await call('GET /api/account/tokens', { cookie, status: 200 });
    await call('DELETE /api/account/tokens/{id}', {
      cookie,
      params: { id: spare.json<{ id: string }>().id },
      status: 200,
    });
    await call('GET /api/account/tokens', { token, status: 403 });
    await call('GET /api/auth/user', { token: 'rs_unknown', status: 401 });
    await call('GET /api/auth/user', { token, status: 200 });
    await call('GET /api/user/status', { token, status: 200 });
    await call('GET /api/credits/balance', { token, status: 200 });
    await call('GET /api/user/balance', { token, status: 200 });
    await call('GET /api/user/generation-status', { token, status: 200 });
    await call('POST /api/credits/estimate', { token, body: EXAMPLE, status: 200 });
    await call('POST /api/errors/report', { body: EXAMPLE, status: 202 });
  });

  it('uploads and media', async () => {
    const link = await call('POST /api/objects/upload', {
      token,
      headers: { 'idempotency-key': 'contract-upload-link' },
      status: 200,
    });
    const replayed = await call('POST /api/objects/upload', {
      token,
      headers: { 'idempotency-key': 'contract-upload-link' },
      status: 200,
    });
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    const target = link.json<{ uploadURL: string }>();
    const [uploadPath = '', query = ''] = target.uploadURL.split('?');
    const id = uploadPath.split('/').pop() ?? '';
    const sent = await call('PUT /api/uploads/{id}', { params: { id }, query, payload: sound, status: 200 });
    const boundary = 'contract-boundary';
    const form = {
      payload: Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="tone.wav"\r\nContent-Type: audio/wav\r\n\r\n`,
        ),
        sound,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    };
    await call('POST /api/uploads/{id}', { params: { id }, query, ...form, status: 403 });
    await call('POST /api/uploads/{id}', {
      params: { id },
      query,
      payload: sound,
      headers: { 'content-type': 'audio/wav' },
    });
    await call('PUT /api/uploads', { token, payload: sound, headers: { 'content-type': 'audio/wav' }, status: 200 });
    await call('POST /api/uploads', { token, ...form, status: 200 });
    await call('POST /api/files/cleanup', { token, status: 200 });

    const objectPath = sent.json<{ objectPath: string }>().objectPath;
    const [, , , owner = '', upload = ''] = objectPath.split('/');
    await call('GET /api/objects/uploads/{userId}/{id}', { token, params: { userId: owner, id: upload }, status: 200 });
    await call('GET /api/objects/uploads/{userId}/{id}', { token, params: { userId: owner }, status: 404 });

    const [row] = await t.db.select().from(uploads).where(eq(uploads.id, upload));
    const signed = mediaUrl(t.ctx.secret, {
      key: row?.objectKey ?? '',
      contentType: 'audio/wav',
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    const [mediaPath = '', mediaQuery = ''] = signed.split('?');
    const mediaId = mediaPath.split('/').pop() ?? '';
    await call('GET /api/media/{id}', { params: { id: mediaId }, query: mediaQuery, status: 200 });
    await call('GET /api/media/{id}', {
      params: { id: mediaId },
      query: 'type=audio%2Fwav&exp=1&sig=forged',
      status: 403,
    });
    await call('POST /api/provenance/verify', {
      payload: ASTRONAUT,
      headers: { 'content-type': 'image/png' },
      status: 200,
    });
    await call('POST /api/provenance/verify', {
      payload: sound,
      headers: { 'content-type': 'audio/wav' },
      status: 415,
    });
    await call('POST /api/prompts/analyze-image', { token, body: { imageUrl: '/objects/uploads/nobody/none' } });
    await call('POST /api/prompts/enhance-text', { token, body: EXAMPLE, status: 200 });
  }, 120_000);

  it('videos', async () => {
    await call('GET /api/models', { token, status: 200 });
    const make = { token, body: { prompt: 'A red fox walking through fresh snow at dawn', duration: 4 } };
    const created = await call('POST /api/video-generation', {
      ...make,
      headers: { 'idempotency-key': 'contract-video' },
      status: 201,
    });
    const replayed = await call('POST /api/video-generation', {
      ...make,
      headers: { 'idempotency-key': 'contract-video' },
      status: 201,
    });
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    await call('POST /api/video-generation', {
      ...make,
      body: { prompt: 'Another' },
      headers: { 'idempotency-key': 'contract-video' },
      status: 422,
    });
    const id = created.json<{ id: string }>().id;
    await call('GET /api/video-generation', { token, status: 200 });
    await call('GET /api/video-generation-jobs', { token, status: 200 });
    await call('GET /api/video-generation-jobs/recent', { token, status: 200 });
    // Unfinished (no worker runs here): Continue, Extend and Keep wait for the video.
    await call('POST /api/video-generation/{id}/last-frame', { token, params: { id } });
    await call('POST /api/video-generation/{id}/extend', { token, params: { id }, body: EXAMPLE, status: 409 });
    await call('GET /api/finishing', { token, status: 200 });
    await call('POST /api/video-generation/{id}/finish', { token, params: { id }, body: EXAMPLE, status: 409 });
    await call('POST /api/films', { token, body: { parts: [{ video: id }] }, status: 409 });
    await call('POST /api/films', { token, body: EXAMPLE, status: 404 });
    await call('POST /api/video-generation/{id}/keep', { token, params: { id }, body: EXAMPLE });
    await call('POST /api/reports', { body: { video: id, reason: 'violence', description: 'A test report.' } });
    await call('GET /api/watch/{token}', { params: { token: 'not-a-watch-token' }, status: 404 });

    // The administrators' console on the same job: cancelled, then neither held nor failed.
    await call('GET /api/admin/jobs', { cookie: adminCookie, status: 200 });
    await call('POST /api/admin/jobs/{id}/approve', { cookie: adminCookie, params: { id }, status: 409 });
    await call('POST /api/admin/jobs/{id}/reject', { cookie: adminCookie, params: { id }, status: 409 });
    await call('POST /api/admin/jobs/{id}/cancel', { cookie: adminCookie, params: { id }, status: 200 });
    await call('POST /api/admin/jobs/{id}/cancel', { cookie: adminCookie, params: { id }, status: 409 });
    await call('POST /api/admin/jobs/{id}/rerun', { cookie: adminCookie, params: { id } });
    await call('POST /api/admin/jobs/{id}/refund', { cookie: adminCookie, params: { id } });
    await call('POST /api/admin/jobs/{id}/refund', { cookie: adminCookie, status: 404 });
    await call('DELETE /api/video-generation/{id}', { token, params: { id }, status: 200 });
    await call('DELETE /api/video-generation/{id}', { token, params: { id }, status: 404 });
    // Replicate signs its calls with a secret this keyless server does not have: the refusal is what can be checked.
    await call('POST /api/webhooks/replicate', { body: { id: 'p_1', status: 'succeeded' }, status: 401 });
  }, 120_000);

  it('storyboards', async () => {
    const shot = randomUUID();
    const next = randomUUID();
    const board = {
      name: 'The lighthouse',
      shots: [
        { id: shot, description: 'A lighthouse at dusk', model: 'local', duration: 4 },
        { id: next, description: 'The keeper climbs the stairs', model: 'local', duration: 4, fromPrevious: true },
      ],
    };
    const made = await call('POST /api/storyboards', { token, body: board, status: 201 });
    const id = made.json<{ id: string }>().id;
    await call('GET /api/storyboards', { token, status: 200 });
    await call('GET /api/storyboards/{id}', { token, params: { id }, status: 200 });
    await call('GET /api/storyboards/{id}', { token, params: { id: randomUUID() }, status: 404 });
    await call('PUT /api/storyboards/{id}', { token, params: { id }, body: { ...board, version: 1 }, status: 200 });
    await call('PUT /api/storyboards/{id}', { token, params: { id }, body: { ...board, version: 1 }, status: 409 });
    // No worker runs here: the second shot waits for the first one's take.
    await call('POST /api/storyboards/{id}/shots/{shotId}/takes', {
      token,
      params: { id, shotId: next },
      body: EXAMPLE,
      status: 409,
    });
    await call('POST /api/storyboards/{id}/render', { token, params: { id }, body: EXAMPLE, status: 201 });
    await call('POST /api/storyboards/{id}/render', { token, params: { id }, body: EXAMPLE, status: 409 });
    await call('POST /api/storyboards/{id}/shots/{shotId}/takes', {
      token,
      params: { id, shotId: shot },
      body: EXAMPLE,
      status: 201,
    });
    await call('POST /api/storyboards/{id}/export', { token, params: { id }, status: 409 });
    await call('DELETE /api/storyboards/{id}', { token, params: { id }, status: 200 });
    await call('DELETE /api/storyboards/{id}', { token, params: { id }, status: 404 });
  });

  it('characters', async () => {
    const picture = await uploadFile(t.app, cookie, ASTRONAUT);
    const body = { name: 'Captain Mira', description: 'A lighthouse keeper', imageFiles: [picture] };
    // The astronaut is a real person: consent first.
    await call('POST /api/characters', { token, body, status: 422 });
    const made = await call('POST /api/characters', {
      token,
      body: { ...body, consentToLikeness: true },
      status: 201,
    });
    const id = made.json<{ id: string }>().id;
    await call('POST /api/characters', { token, body: { ...body, imageFiles: ['/objects/uploads/x/y'] }, status: 400 });
    await call('GET /api/characters', { token, status: 200 });
    await call('PUT /api/characters/{id}', { token, params: { id }, body: { name: 'Mira' }, status: 200 });
    await call('PUT /api/characters/{id}', {
      token,
      params: { id: randomUUID() },
      body: { name: 'Mira' },
      status: 404,
    });
    await call('DELETE /api/characters/{id}', { token, params: { id }, status: 200 });
    await call('DELETE /api/characters/{id}', { token, params: { id }, status: 404 });
  });

  it('payments, on a server without Stripe keys', async () => {
    // Stripe's flows run against a stand-in in payments.routes.test.ts; here each route says payments are off.
    await call('GET /api/payments/config', { status: 200 });
    await call('GET /api/payments/subscription', { cookie, status: 200 });
    await call('GET /api/payments/receipts', { cookie, status: 200 });
    const off = { cookie, status: 503 };
    await call('POST /api/credits/checkout', { ...off, body: { creditsAmount: 10 } });
    await call('POST /api/credits/checkout-success', { ...off, body: { sessionId: 'cs_test_1' } });
    await call('POST /api/credits/payment-intent', { ...off, body: { credits: 10 } });
    await call('POST /api/credits/fulfill', { ...off, body: { paymentIntentId: 'pi_1', credits: 10 } });
    await call('POST /api/payments/start-subscription', off);
    await call('POST /api/payments/extra-generations', { ...off, body: { package: 'small' } });
    await call('POST /api/payments/confirm', { ...off, body: {} });
    await call('POST /api/payments/cancel-subscription', off);
    await call('POST /api/payments/billing-portal', off);
    await call('POST /api/stripe/webhook', { body: { type: 'checkout.session.completed' }, status: 503 });
  });

  it('notifications, webhooks and the live event stream', async () => {
    await call('GET /api/notifications', { cookie, status: 200 });
    await call('PUT /api/notifications/email', { cookie, body: { enabled: false }, status: 200 });
    await call('PUT /api/notifications/email', { cookie, body: { enabled: true }, status: 409 });
    // A browser's subscription needs a push service's endpoint and keys (notifications.test.ts has a stand-in).
    await call('POST /api/notifications/push-subscriptions', { cookie, body: { endpoint: 'nope' }, status: 400 });
    await call('DELETE /api/notifications/push-subscriptions', {
      cookie,
      body: { endpoint: 'https://push.example/none' },
      status: 200,
    });
    await call('POST /api/notifications/presence', { cookie, body: { visible: true }, status: 204 });

    const endpoint = await call('POST /api/account/webhooks', {
      cookie,
      body: { url: receiver.url('/contract'), events: ['video.completed'] },
      status: 201,
    });
    const hook = endpoint.json<{ id: string }>().id;
    await call('GET /api/account/webhooks', { cookie, status: 200 });
    const delivery = await call('POST /api/account/webhooks/{id}/test', { cookie, params: { id: hook }, status: 200 });
    await call('GET /api/account/webhooks/{id}/deliveries', { cookie, params: { id: hook }, status: 200 });
    const deliveryId = delivery.json<{ id: string }>().id;
    await call('POST /api/account/webhooks/{id}/deliveries/{deliveryId}/redeliver', {
      cookie,
      params: { id: hook, deliveryId },
      status: 200,
    });
    await call('DELETE /api/account/webhooks/{id}', { cookie, params: { id: hook }, status: 200 });
    // The test event, sent and sent again, as the document's webhooks describe it (the other events:
    // jobs/webhooks-pipeline.test.ts).
    const tests = receiver.received.filter((request) => request.path === '/contract');
    expect(tests).toHaveLength(2);
    expect(tests.flatMap((request) => contract.checkWebhook(request))).toEqual([]);

    await call('GET /api/events', { status: 401 });
    // The stream never ends, so it is read over HTTP: its head and first bytes.
    const base = await listenLocally(t);
    const abort = new AbortController();
    const stream = await fetch(`${base}/api/events`, { headers: { cookie }, signal: abort.signal });
    const first = await stream.body?.getReader().read();
    abort.abort();
    called.add('GET /api/events');
    const headers = Object.fromEntries(stream.headers.entries());
    const body = new TextDecoder().decode(first?.value);
    expect(contract.check('GET /api/events', { statusCode: stream.status, headers, body })).toEqual([]);
    expect(stream.status).toBe(200);
  });

  it('administration and safety', async () => {
    const admin = { cookie: adminCookie };
    await call('GET /api/admin/users', { ...admin, status: 200 });
    await call('GET /api/admin/users', { cookie, status: 403 });
    await call('GET /api/admin/stats', { ...admin, status: 200 });
    await call('GET /api/admin/costs', { ...admin, status: 200 });
    const someone = await createUser(t.db);
    await call('PATCH /api/admin/users/{id}', {
      ...admin,
      params: { id: someone.id },
      body: {
        firstName: 'Renamed',
        lastName: null,
        email: someone.email,
        availableCredits: 3,
        totalCreditsUsed: 0,
        subscriptionStatus: 'inactive',
      },
      status: 200,
    });
    for (const action of ['warn', 'suspend', 'unsuspend'])
      await call(`POST /api/admin/safety/users/{id}/${action}`, { ...admin, params: { id: someone.id }, status: 200 });
    await call('DELETE /api/admin/users/{id}', { ...admin, params: { id: someone.id }, status: 200 });
    await call('DELETE /api/admin/users/{id}', { ...admin, status: 404 });

    await call('GET /api/admin/safety', { ...admin, status: 200 });
    for (const decision of ['take-down', 'dismiss', 'grant'])
      await call(`POST /api/admin/safety/reports/{id}/${decision}`, { ...admin, body: { note: '' }, status: 404 });
    await call('GET /api/safety/takedowns', { cookie, status: 200 });
    await call('POST /api/safety/takedowns/{reportId}/appeal', { cookie, body: EXAMPLE, status: 404 });

    await call('GET /api/admin/settings', { ...admin, status: 200 });
    // Each key is tried with its service first: a closed local port stands for an unreachable one.
    await call('PUT /api/admin/settings/providers', {
      ...admin,
      body: { provider: 'comfyui', url: 'http://127.0.0.1:9' },
      status: 502,
    });
    await call('PUT /api/admin/settings/mail', {
      ...admin,
      body: { smtpUrl: 'smtp://127.0.0.1:9', from: 'Reelsmith <no-reply@example.com>' },
      status: 502,
    });
    // Stripe's keys are tried at Stripe itself: only the refusal before any call is checked here.
    await call('PUT /api/admin/settings/payments', { ...admin, body: { secretKey: 'nope' }, status: 400 });
    await call('DELETE /api/admin/settings/payments', { ...admin, status: 404 });
    await call('DELETE /api/admin/settings/mail', { ...admin, status: 404 });
    await call('DELETE /api/admin/settings/providers/{provider}', {
      ...admin,
      params: { provider: 'fal' },
      status: 404,
    });
    await call('PUT /api/admin/settings/contact', { ...admin, body: EXAMPLE, status: 200 });
    await call('PUT /api/admin/settings/rules', { ...admin, body: { videoHours: 72 }, status: 200 });
  }, 120_000);

  it('says when to try again once a limit is reached', async () => {
    const ask = { body: { email: 'limit@example.com' } };
    let answer = await call('POST /api/auth/password-reset', ask);
    for (let tries = 0; answer.statusCode !== 429 && tries < 10; tries += 1)
      answer = await call('POST /api/auth/password-reset', ask);
    expect(answer.statusCode).toBe(429);
  });

  it('called every operation of the document', () => {
    expect(contract.operations.filter((operation) => !called.has(operation))).toEqual([]);
  });
});

describe('the checker', () => {
  it('refuses a status, a body or a header the document does not list', () => {
    const json = { 'content-type': 'application/json; charset=utf-8' };
    const body = JSON.stringify({ code: 'generation_not_found', message: 'Gone.' });
    const route = 'DELETE /api/video-generation/{id}';
    expect(contract.check(route, { statusCode: 404, headers: json, body })).toEqual([]);
    expect(contract.check(route, { statusCode: 418, headers: json, body })[0]).toMatch(/lists only/);
    expect(contract.check(route, { statusCode: 200, headers: json, body: '{"deleted":true}' })[0]).toMatch(
      /does not fit its schema/,
    );
    expect(
      contract.check(route, { statusCode: 404, headers: json, body: '{"code":"teapot","message":"?"}' })[0],
    ).toMatch(/does not list/);
    expect(contract.check('GET /api/video-generation', { statusCode: 200, headers: json, body: '[]' }).join()).toMatch(
      /no etag header/,
    );
    expect(
      contract
        .check('GET /api/auth/providers', { statusCode: 503, headers: { ...json, 'retry-after': 'soon' }, body })
        .join(),
    ).toMatch(/retry-after: soon does not fit/);
  });
});
