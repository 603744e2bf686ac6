import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, type TestApp } from '../../../../tests/support/app';
import { createUser, signIn } from '../../../../tests/support/factories';
import { closedPort, startWebhookReceiver, type WebhookReceiver } from '../../../../tests/support/webhook-receiver';
import type { CreatedWebhook, WebhookDelivery, WebhookEndpoint } from '../../../shared/webhooks';
import { webhookDeliveries, webhookEndpoints } from '../../db/schema';
import { deliverDueWebhook, RETRY_DELAYS_MS } from './webhooks.service';

// The account page's webhook routes against the real app, delivering to a local receiver that
// verifies with the `standardwebhooks` package (the specification's reference library).

let t: TestApp;
let receiver: WebhookReceiver;
let other: WebhookReceiver;
let deadPort: number;
/** The app's clock: the retry test moves it instead of waiting. */
let clock = Date.now();

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  other = await startWebhookReceiver();
  deadPort = await closedPort();
  t = await createTestApp({ WEBHOOK_ALLOWED_PRIVATE_HOSTS: `${receiver.hostPort}, 127.0.0.1:${deadPort}` }, undefined, {
    now: () => new Date(clock),
  });
}, 240_000);
afterAll(async () => {
  await t.close();
  await receiver.close();
  await other.close();
});

async function signedInUser() {
  const user = await createUser(t.db);
  return { user, cookie: await signIn(t.app, user) };
}

async function addEndpoint(cookie: string, url: string, events = ['video.completed']) {
  const response = await injectJson(t.app, 'POST', '/api/account/webhooks', { cookie, body: { url, events } });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<CreatedWebhook>();
}

const verify = (secret: string, request: { headers: Record<string, unknown>; body: string }) =>
  new Webhook(secret).verify(request.body, {
    'webhook-id': String(request.headers['webhook-id']),
    'webhook-timestamp': String(request.headers['webhook-timestamp']),
    'webhook-signature': String(request.headers['webhook-signature']),
  });

describe('webhook endpoints', () => {
  it('adds an endpoint with a whsec_ secret shown once, lists it without the secret, and deletes it', async () => {
    const { cookie } = await signedInUser();
    const created = await addEndpoint(cookie, receiver.url(), ['video.completed', 'credits.low', 'video.completed']);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(created.secret.slice(6), 'base64')).toHaveLength(32);
    expect(created.events).toEqual(['video.completed', 'credits.low']);

    const list = await injectJson(t.app, 'GET', '/api/account/webhooks', { cookie });
    expect(list.json<WebhookEndpoint[]>()).toEqual([
      { id: created.id, url: receiver.url(), events: ['video.completed', 'credits.low'], createdAt: created.createdAt },
    ]);
    expect(list.body).not.toContain('whsec_');

    const removed = await injectJson(t.app, 'DELETE', `/api/account/webhooks/${created.id}`, { cookie });
    expect(removed.statusCode).toBe(200);
    expect((await injectJson(t.app, 'GET', '/api/account/webhooks', { cookie })).json()).toEqual([]);
    expect((await injectJson(t.app, 'DELETE', `/api/account/webhooks/${created.id}`, { cookie })).statusCode).toBe(404);
  });

  it('needs a session, and never shows or touches another user’s endpoints', async () => {
    expect((await injectJson(t.app, 'GET', '/api/account/webhooks')).statusCode).toBe(401);
    const body = { url: receiver.url(), events: ['video.completed'] };
    expect((await injectJson(t.app, 'POST', '/api/account/webhooks', { body })).statusCode).toBe(401);
    const owner = await signedInUser();
    const created = await addEndpoint(owner.cookie, receiver.url());
    const stranger = await signedInUser();
    for (const [method, url] of [
      ['DELETE', `/api/account/webhooks/${created.id}`],
      ['POST', `/api/account/webhooks/${created.id}/test`],
      ['GET', `/api/account/webhooks/${created.id}/deliveries`],
    ] as const)
      expect((await injectJson(t.app, method, url, { cookie: stranger.cookie })).statusCode).toBe(404);
    expect((await injectJson(t.app, 'GET', '/api/account/webhooks', { cookie: stranger.cookie })).json()).toEqual([]);
  });

  it('refuses unknown events, no events, and an eleventh endpoint', async () => {
    const { user, cookie } = await signedInUser();
    for (const events of [[], ['video.deleted']]) {
      const response = await injectJson(t.app, 'POST', '/api/account/webhooks', {
        cookie,
        body: { url: receiver.url(), events },
      });
      expect(response.statusCode).toBe(400);
    }
    for (let i = 0; i < 10; i += 1) await addEndpoint(cookie, receiver.url(`/hooks/${i}`));
    const eleventh = await injectJson(t.app, 'POST', '/api/account/webhooks', {
      cookie,
      body: { url: receiver.url(), events: ['video.completed'] },
    });
    expect(eleventh.statusCode).toBe(409);
    expect(eleventh.json()).toMatchObject({ code: 'webhook_limit' });
    expect(await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.userId, user.id))).toHaveLength(10);
  });
});

describe('no server-side request forgery at creation', () => {
  // Every way of writing a loopback, private, link-local, unique-local, multicast, CGNAT, unspecified
  // or otherwise reserved address; none is on WEBHOOK_ALLOWED_PRIVATE_HOSTS (that names exact ports).
  const refused = [
    'http://127.0.0.1/hooks',
    `http://127.0.0.1:${8000}/`,
    'http://2130706433/',
    'http://0x7f000001/',
    'http://0x7f.1/',
    'http://0177.0.0.1/',
    'http://017700000001/',
    'http://127.1/',
    'http://127.0.1/',
    'http://0/',
    'http://0.0.0.0/',
    'http://[::1]/',
    'http://[0:0:0:0:0:0:0:1]/',
    'http://[::]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[::ffff:10.0.0.1]/',
    'http://[64:ff9b::127.0.0.1]/',
    'http://[2002:7f00:1::]/',
    'http://[::127.0.0.1]/',
    'http://localhost/',
    'http://localhost./',
    'http://LOCALHOST:80/',
    'http://app.localhost/',
    'http://intranet/',
    'http://10.0.0.1/',
    'http://10.255.255.255/',
    'http://172.16.0.1/',
    'http://172.31.255.1/',
    'http://192.168.1.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://100.64.0.1/',
    'http://100.127.255.254/',
    'http://198.18.0.1/',
    'http://192.0.2.1/',
    'http://224.0.0.1/',
    'http://239.255.255.250/',
    'http://255.255.255.255/',
    'http://240.0.0.1/',
    'http://[fe80::1]/',
    'http://[fc00::1]/',
    'http://[fd12:3456:789a::1]/',
    'http://[ff02::1]/',
    'http://[2001:db8::1]/',
    'http://[2001:0::1]/',
    'http://127.0.0.1.:80/',
    'ftp://example.com/hooks',
    'https://user:pass@example.com/hooks',
    'not a url',
  ];

  it.each(refused)('refuses %s with 422 and stores nothing', async (url) => {
    const { user, cookie } = await signedInUser();
    const response = await injectJson(t.app, 'POST', '/api/account/webhooks', {
      cookie,
      body: { url, events: ['video.completed'] },
    });
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json()).toMatchObject({ code: 'webhook_url_refused' });
    expect(await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.userId, user.id))).toEqual([]);
  });

  it('allows exactly the host:port pairs of WEBHOOK_ALLOWED_PRIVATE_HOSTS', async () => {
    const { cookie } = await signedInUser();
    await addEndpoint(cookie, receiver.url());
    await addEndpoint(cookie, `http://127.0.0.1:${deadPort}/`);
    const otherPort = await injectJson(t.app, 'POST', '/api/account/webhooks', {
      cookie,
      body: { url: other.url(), events: ['video.completed'] },
    });
    expect(otherPort.statusCode).toBe(422);
  });
});

describe('deliveries', () => {
  // Receivers check webhook-timestamp against their own clock: each test starts on the real time.
  beforeEach(() => {
    clock = Date.now();
  });

  it('sends a signed test event that standardwebhooks verifies, logs it, and redelivers it with the same webhook-id', async () => {
    const { cookie } = await signedInUser();
    const endpoint = await addEndpoint(cookie, receiver.url('/test-event'));
    const arrived = receiver.next((r) => r.path === '/test-event');
    const test = await injectJson(t.app, 'POST', `/api/account/webhooks/${endpoint.id}/test`, { cookie });
    expect(test.statusCode, test.body).toBe(200);
    const request = await arrived;
    expect(verify(endpoint.secret, request)).toMatchObject({
      type: 'webhook.test',
      data: { endpointId: endpoint.id, message: 'This is a test event from Reelsmith.' },
    });
    expect(request.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(request.headers['content-type']).toBe('application/json');
    // Another secret does not verify it.
    expect(() => verify(`whsec_${Buffer.alloc(32, 1).toString('base64')}`, request)).toThrow();

    const delivery = test.json<WebhookDelivery>();
    expect(delivery).toMatchObject({
      eventType: 'webhook.test',
      status: 'succeeded',
      attempts: 1,
      nextAttemptAt: null,
    });
    expect(delivery.log).toEqual([
      {
        attempt: 1,
        responseStatus: 204,
        durationMs: expect.any(Number),
        error: null,
        at: new Date(clock).toISOString(),
      },
    ]);

    const again = receiver.next((r) => r.path === '/test-event');
    const redelivered = await injectJson(
      t.app,
      'POST',
      `/api/account/webhooks/${endpoint.id}/deliveries/${delivery.id}/redeliver`,
      { cookie },
    );
    expect(redelivered.statusCode, redelivered.body).toBe(200);
    const second = await again;
    expect(second.headers['webhook-id']).toBe(request.headers['webhook-id']);
    expect(second.body).toBe(request.body);
    verify(endpoint.secret, second);

    const log = (await injectJson(t.app, 'GET', `/api/account/webhooks/${endpoint.id}/deliveries`, { cookie })).json<
      WebhookDelivery[]
    >();
    expect(log).toHaveLength(2);
    expect(log.map((d) => d.messageId)).toEqual([delivery.messageId, delivery.messageId]);
    expect(log.every((d) => d.status === 'succeeded')).toBe(true);
  });

  it('retries a closed port on an allowed host with backoff for 24 hours, logging every attempt', async () => {
    const { cookie } = await signedInUser();
    const endpoint = await addEndpoint(cookie, `http://127.0.0.1:${deadPort}/hooks`);
    const first = await injectJson(t.app, 'POST', `/api/account/webhooks/${endpoint.id}/test`, { cookie });
    const start = clock;
    expect(first.json<WebhookDelivery>()).toMatchObject({
      status: 'pending',
      attempts: 1,
      nextAttemptAt: new Date(start + 5_000).toISOString(),
      log: [{ attempt: 1, responseStatus: null, error: 'Connection refused.' }],
    });

    let due = start;
    for (const delay of RETRY_DELAYS_MS) {
      // Not before its time...
      clock = due + delay - 1;
      expect(await deliverDueWebhook(t.ctx)).toBe(false);
      // ...and then once.
      due += delay;
      clock = due;
      expect(await deliverDueWebhook(t.ctx)).toBe(true);
      expect(await deliverDueWebhook(t.ctx)).toBe(false);
    }
    expect(due - start).toBe(24 * 3_600_000);
    clock = due + 48 * 3_600_000;
    expect(await deliverDueWebhook(t.ctx)).toBe(false);

    const [delivery] = (
      await injectJson(t.app, 'GET', `/api/account/webhooks/${endpoint.id}/deliveries`, { cookie })
    ).json<WebhookDelivery[]>();
    expect(delivery).toMatchObject({ status: 'failed', attempts: 8, nextAttemptAt: null });
    // Newest first; each attempt at its scheduled time, each refused.
    const times = delivery?.log.map((a) => Date.parse(a.at) - start).reverse();
    expect(times).toEqual([0, 5_000, 305_000, 2_105_000, 9_305_000, 27_305_000, 63_305_000, 86_400_000]);
    expect(delivery?.log.map((a) => a.attempt)).toEqual([8, 7, 6, 5, 4, 3, 2, 1]);
    expect(delivery?.log.every((a) => a.responseStatus === null && a.error === 'Connection refused.')).toBe(true);
  });

  it('records non-2xx answers with their status, and follows a 307 only to a checked target', async () => {
    const { cookie } = await signedInUser();
    const endpoint = await addEndpoint(cookie, receiver.url('/status'));
    receiver.respond((r) => {
      if (r.path === '/status') return { status: 500 };
      if (r.path === '/moved-here') return { status: 307, headers: { location: '/landed' } };
      if (r.path === '/moved-away') return { status: 307, headers: { location: other.url('/stolen') } };
      if (r.path === '/found') return { status: 302, headers: { location: '/landed' } };
      return { status: 200 };
    });
    try {
      const failed = await injectJson(t.app, 'POST', `/api/account/webhooks/${endpoint.id}/test`, { cookie });
      expect(failed.json<WebhookDelivery>().log[0]).toMatchObject({ responseStatus: 500, error: 'HTTP 500' });

      const followed = await addEndpoint(cookie, receiver.url('/moved-here'));
      const landed = receiver.next((r) => r.path === '/landed');
      const ok = await injectJson(t.app, 'POST', `/api/account/webhooks/${followed.id}/test`, { cookie });
      expect(ok.json<WebhookDelivery>()).toMatchObject({ status: 'succeeded', log: [{ responseStatus: 200 }] });
      verify(followed.secret, await landed);

      const away = await addEndpoint(cookie, receiver.url('/moved-away'));
      const blocked = await injectJson(t.app, 'POST', `/api/account/webhooks/${away.id}/test`, { cookie });
      expect(blocked.json<WebhookDelivery>().log[0]?.error).toMatch(/private or reserved address/);
      expect(other.received).toEqual([]);

      const found = await addEndpoint(cookie, receiver.url('/found'));
      const notFollowed = await injectJson(t.app, 'POST', `/api/account/webhooks/${found.id}/test`, { cookie });
      expect(notFollowed.json<WebhookDelivery>().log[0]).toMatchObject({ responseStatus: 302 });
    } finally {
      receiver.respond(() => ({ status: 204 }));
    }
  });

  it('drops an endpoint’s deliveries with it', async () => {
    const { cookie } = await signedInUser();
    const endpoint = await addEndpoint(cookie, receiver.url());
    await injectJson(t.app, 'POST', `/api/account/webhooks/${endpoint.id}/test`, { cookie });
    await injectJson(t.app, 'DELETE', `/api/account/webhooks/${endpoint.id}`, { cookie });
    expect(await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpoint.id))).toEqual(
      [],
    );
  });
});
