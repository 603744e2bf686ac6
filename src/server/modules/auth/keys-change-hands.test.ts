import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, injectJson, sessionCookieFrom, type TestApp } from '../../../../tests/support/app';
import { redirectTarget, signInThroughProvider } from '../../../../tests/support/external-sign-in';
import { uniqueEmail } from '../../../../tests/support/factories';
import { startTestIdentityProvider, type TestIdentityProvider } from '../../../../tests/support/identity-provider';
import { FAST_PROVIDER_ENV, followJob, startTestWorker } from '../../../../tests/support/pipeline';
import { startTestSmtpServer, type TestSmtpServer } from '../../../../tests/support/smtp';
import { startWebhookReceiver, type WebhookReceiver } from '../../../../tests/support/webhook-receiver';
import type { SecurityEventList } from '../../../shared/account-security';
import type { GenerationRecord } from '../../../shared/generations';
import { users, webhookDeliveries, webhookEndpoints } from '../../db/schema';
import type { Worker } from '../../jobs/worker';
import { settleVerificationMail } from './email-verification.service';
import { settlePasswordResetMail } from './password-reset.service';

// Issue 40: every key to an account changes when the account changes hands or passwords, through the
// real flows: password registration, the Google stand-in, mail caught by a real SMTP server, a webhook
// receiver on loopback and the worker rendering the owner's video.
const APP_ORIGIN = 'http://localhost:3000';
const REDIRECT_URIS = [`${APP_ORIGIN}/api/callback`, `${APP_ORIGIN}/api/auth/google/callback`];
const ALL_SCOPES = ['videos:read', 'videos:write', 'uploads:write', 'account:read'];

let google: TestIdentityProvider;
let smtp: TestSmtpServer;
let receiver: WebhookReceiver;
let t: TestApp;
let worker: Worker;

beforeAll(async () => {
  google = await startTestIdentityProvider({ redirectUris: REDIRECT_URIS, claimsInIdToken: true });
  smtp = await startTestSmtpServer();
  receiver = await startWebhookReceiver();
  t = await createTestApp({
    ...FAST_PROVIDER_ENV,
    GOOGLE_CLIENT_ID: google.clientId,
    GOOGLE_CLIENT_SECRET: google.clientSecret,
    GOOGLE_ISSUER_URL: google.issuer,
    SMTP_URL: smtp.url,
    WEBHOOK_ALLOWED_PRIVATE_HOSTS: receiver.hostPort,
  });
  worker = startTestWorker(t);
  // The first account is the administrator; the attacks are on everyone else's.
  await register(uniqueEmail('admin'), 'administrator password');
}, 120_000);
afterAll(async () => {
  await worker?.stop(1000);
  await t?.close();
  if (t) {
    await settleVerificationMail(t.ctx);
    await settlePasswordResetMail(t.ctx);
  }
  await google?.close();
  await smtp?.close();
  await receiver?.close();
});

let counter = 0;
const nextAddress = () => `198.51.100.${(counter += 1)}`;

async function register(email: string, password: string) {
  const response = await injectJson(t.app, 'POST', '/api/auth/register', {
    body: { email, password, firstName: 'Reg', lastName: 'Istrant' },
    remoteAddress: nextAddress(),
  });
  expect(response.statusCode, response.body).toBe(201);
  return { cookie: sessionCookieFrom(response), id: response.json<{ id: string }>().id };
}

async function tokenFor(cookie: string, name = 'script'): Promise<string> {
  const response = await injectJson(t.app, 'POST', '/api/account/tokens', {
    cookie,
    body: { name, scopes: ALL_SCOPES },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ token: string }>().token;
}

async function webhookFor(cookie: string, path: string): Promise<string> {
  const response = await injectJson(t.app, 'POST', '/api/account/webhooks', {
    cookie,
    body: { url: receiver.url(path), events: ['video.completed', 'video.progress'] },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: string }>().id;
}

const withToken = (token: string, method: 'GET' | 'POST', url: string, body?: unknown) =>
  injectJson(t.app, method, url, { headers: { authorization: `Bearer ${token}` }, body });

/** The link in the latest mail to `to` with this subject, as its token. */
async function mailedToken(to: string, subject: string, pattern: RegExp): Promise<string> {
  await settlePasswordResetMail(t.ctx);
  await settleVerificationMail(t.ctx);
  const mail = smtp.messages
    .filter((m) => [m.to ?? []].flat().some((a) => a.text.includes(to)) && m.subject === subject)
    .at(-1);
  const link = pattern.exec(mail?.text ?? '')?.[1];
  if (!link) throw new Error(`no "${subject}" mail to ${to}`);
  const token = new URL(link).searchParams.get('token');
  if (!token) throw new Error('the link has no token');
  return token;
}

const RESET_LINK = /(http:\S+reset-password\?token=[\w-]+)/;
const VERIFY_LINK = /(http:\S+verify-email\?token=[\w-]+)/;

async function askForReset(email: string): Promise<string> {
  const before = smtp.messages.length;
  await injectJson(t.app, 'POST', '/api/auth/password-reset', { body: { email }, remoteAddress: nextAddress() });
  await settlePasswordResetMail(t.ctx);
  expect(smtp.messages.length).toBeGreaterThan(before);
  return mailedToken(email, 'Reset your Reelsmith password', RESET_LINK);
}

const confirmReset = (token: string, password: string) =>
  injectJson(t.app, 'POST', '/api/auth/password-reset/confirm', {
    body: { token, password },
    remoteAddress: nextAddress(),
  });

const securityEvents = async (cookie: string) =>
  (await injectJson(t.app, 'GET', '/api/account/security-events', { cookie })).json<SecurityEventList>().events;

describe('a hand-over to the owner', () => {
  it('ends the stranger’s access token and webhook endpoint: the owner’s video reaches neither', async () => {
    const email = uniqueEmail('owner');
    const stranger = await register(email, 'stranger password 1');
    const strangerToken = await tokenFor(stranger.cookie, 'stranger script');
    expect((await withToken(strangerToken, 'GET', '/api/auth/user')).statusCode).toBe(200);
    const strangerEndpoint = await webhookFor(stranger.cookie, '/stranger');

    const personId = `owner-${Math.random().toString(36).slice(2, 10)}`;
    google.setAccount(personId, { email, email_verified: true, given_name: 'Olive', family_name: 'Owner' });
    const signedIn = await signInThroughProvider(t.app, {
      startPath: '/api/auth/google',
      account: personId,
      appOrigin: APP_ORIGIN,
    });
    expect(redirectTarget(signedIn)).toEqual({ path: '/dashboard', error: null, details: null });
    const owner = sessionCookieFrom(signedIn);

    // The stranger's token answers nothing about the account any more, and the endpoint is gone.
    for (const url of ['/api/auth/user', '/api/video-generation']) {
      const refused = await withToken(strangerToken, 'GET', url);
      expect(refused.statusCode, url).toBe(401);
      expect(refused.json()).toMatchObject({ code: 'invalid_token' });
    }
    expect(await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, strangerEndpoint))).toEqual([]);

    // The owner makes a video, with their own endpoint listening: it hears every event, the stranger's none.
    await t.db.update(users).set({ creditsHundredths: 1000 }).where(eq(users.id, stranger.id));
    await webhookFor(owner, '/owner');
    const created = await injectJson(t.app, 'POST', '/api/video-generation', {
      cookie: owner,
      body: { prompt: 'A lighthouse at dusk', model: 'local', resolution: '480p', duration: 2 },
    });
    expect(created.statusCode, created.body).toBe(201);
    const video = created.json<GenerationRecord>();
    const { row } = await followJob(t, video.id, 120_000);
    expect(row?.status, row?.errorMessage ?? '').toBe('completed');
    const completed = await receiver.next((r) => r.path === '/owner' && r.body.includes('"video.completed"'), 60_000);
    expect(completed.body).toContain(video.id);
    expect(receiver.received.filter((r) => r.path === '/stranger')).toEqual([]);
    expect(
      await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, strangerEndpoint)),
    ).toEqual([]);

    // The owner sees what the hand-over removed, and when.
    const [event] = await securityEvents(owner);
    expect(event).toMatchObject({
      kind: 'hand_over',
      via: 'Google',
      removed: { sessions: 1, accessTokens: 1, webhookEndpoints: 1, signIns: 0, password: true },
    });
    expect(Date.parse(event?.createdAt ?? '')).toBeGreaterThan(Date.now() - 5 * 60_000);
    // The owner's own new token works.
    expect((await withToken(await tokenFor(owner), 'GET', '/api/auth/user')).json()).toMatchObject({ email });
  }, 180_000);
});

describe('a password reset or change', () => {
  it('revokes every access token made before a reset; the owner’s new token works', async () => {
    const email = uniqueEmail('reset');
    const account = await register(email, 'first password 1');
    const before = await tokenFor(account.cookie);
    const endpoint = await webhookFor(account.cookie, '/made-while-unproven');

    const reset = await confirmReset(await askForReset(email), 'second password 2');
    expect(reset.statusCode, reset.body).toBe(200);
    const cookie = sessionCookieFrom(reset);
    expect((await withToken(before, 'GET', '/api/auth/user')).statusCode).toBe(401);
    expect((await withToken(await tokenFor(cookie), 'GET', '/api/auth/user')).json()).toMatchObject({ email });
    // The reset proved the address: the endpoint added while it was unproven went too.
    expect(await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint))).toEqual([]);
    expect((await securityEvents(cookie))[0]).toMatchObject({
      kind: 'password_reset',
      removed: { sessions: 1, accessTokens: 1, webhookEndpoints: 1, password: false },
    });
  });

  it('revokes every access token made before a password change and keeps this browser signed in', async () => {
    const email = uniqueEmail('change');
    const account = await register(email, 'first password 1');
    const other = await injectJson(t.app, 'POST', '/api/auth/login', {
      body: { email, password: 'first password 1' },
      remoteAddress: nextAddress(),
    });
    const otherCookie = sessionCookieFrom(other);
    const before = await tokenFor(account.cookie);
    const endpoint = await webhookFor(account.cookie, '/kept');

    const changed = await injectJson(t.app, 'POST', '/api/account/password', {
      cookie: account.cookie,
      body: { currentPassword: 'first password 1', newPassword: 'second password 2' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await withToken(before, 'GET', '/api/auth/user')).statusCode).toBe(401);
    expect((await injectJson(t.app, 'GET', '/api/auth/user', { cookie: otherCookie })).statusCode).toBe(401);
    expect((await injectJson(t.app, 'GET', '/api/auth/user', { cookie: account.cookie })).statusCode).toBe(200);
    expect((await withToken(await tokenFor(account.cookie), 'GET', '/api/auth/user')).statusCode).toBe(200);
    // Webhook endpoints are not a way in: a password change keeps them.
    expect(await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint))).toHaveLength(1);
    expect((await securityEvents(account.cookie))[0]).toMatchObject({
      kind: 'password_change',
      removed: { sessions: 1, accessTokens: 1, webhookEndpoints: 0 },
    });
  });

  it('a reset link for another account’s old address is refused after the account moved to a new address', async () => {
    const email = uniqueEmail('moving');
    const account = await register(email, 'first password 1');
    // The address is proven first (as an owner does), then a reset link is mailed to it.
    await injectJson(t.app, 'POST', '/api/auth/verify-email', {
      body: { token: await mailedToken(email, 'Verify your Reelsmith email', VERIFY_LINK) },
    });
    const oldLink = await askForReset(email);

    const moved = uniqueEmail('moved');
    const asked = await injectJson(t.app, 'POST', '/api/account/email', {
      cookie: account.cookie,
      body: { email: moved, currentPassword: 'first password 1' },
    });
    expect(asked.statusCode, asked.body).toBe(202);
    const confirmed = await injectJson(t.app, 'POST', '/api/auth/verify-email', {
      body: { token: await mailedToken(moved, 'Confirm your new Reelsmith email', VERIFY_LINK) },
    });
    expect(confirmed.json()).toMatchObject({ email: moved });

    const refused = await confirmReset(oldLink, 'taken over 3');
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'reset_link_invalid' });
    const login = await injectJson(t.app, 'POST', '/api/auth/login', {
      body: { email: moved, password: 'first password 1' },
      remoteAddress: nextAddress(),
    });
    expect(login.statusCode).toBe(200);
    expect((await securityEvents(account.cookie)).map((e) => e.kind)).toEqual(['email_change', 'email_proven']);
  });

  it('binds a reset link to its address even when it was never used before the move', async () => {
    const email = uniqueEmail('bound');
    const account = await register(email, 'first password 1');
    const link = await askForReset(email);
    // An administrator moves the account to another address (the old mailbox may be someone else's now).
    await t.db
      .update(users)
      .set({ email: uniqueEmail('elsewhere') })
      .where(eq(users.id, account.id));
    expect((await confirmReset(link, 'taken over 3')).json()).toMatchObject({ code: 'reset_link_invalid' });
  });
});

describe('proving the email', () => {
  it('ends the access tokens and webhook endpoints made while it was unproven, not those made after', async () => {
    const email = uniqueEmail('prove');
    const account = await register(email, 'first password 1');
    const early = await tokenFor(account.cookie, 'early');
    const verified = await injectJson(t.app, 'POST', '/api/auth/verify-email', {
      body: { token: await mailedToken(email, 'Verify your Reelsmith email', VERIFY_LINK) },
    });
    expect(verified.statusCode, verified.body).toBe(200);
    expect((await withToken(early, 'GET', '/api/auth/user')).statusCode).toBe(401);
    // The session that registered stays signed in; a token made now survives a later proof of nothing.
    expect((await injectJson(t.app, 'GET', '/api/auth/user', { cookie: account.cookie })).statusCode).toBe(200);
    const later = await tokenFor(account.cookie, 'later');
    expect((await withToken(later, 'GET', '/api/auth/user')).statusCode).toBe(200);
    expect((await securityEvents(account.cookie))[0]).toMatchObject({
      kind: 'email_proven',
      removed: { sessions: 0, accessTokens: 1 },
    });
  });
});

describe('administrators deleting their own accounts at once', () => {
  it('answers each 200 or 409 last_admin, never a 500, and one administrator remains', async () => {
    // Three rounds: the deadlock this guards against came in about one race of two.
    for (const round of [1, 2, 3]) {
      // Only these four are administrators now.
      await t.db.update(users).set({ isAdmin: false }).where(eq(users.isAdmin, true));
      const admins = await Promise.all(
        [1, 2, 3, 4].map(async (n) => {
          const password = `admin password ${round}-${n}`;
          const account = await register(uniqueEmail(`admin-${round}-${n}`), password);
          await t.db.update(users).set({ isAdmin: true }).where(eq(users.id, account.id));
          return { ...account, password };
        }),
      );
      const answers = await Promise.all(
        admins.map((admin) =>
          injectJson(t.app, 'DELETE', '/api/account', { cookie: admin.cookie, body: { password: admin.password } }),
        ),
      );
      const statuses = answers.map((a) => a.statusCode);
      expect(
        statuses.every((s) => s === 200 || s === 409),
        answers.map((a) => a.body).join('\n'),
      ).toBe(true);
      expect(statuses.filter((s) => s === 200)).toHaveLength(3);
      expect(answers.find((a) => a.statusCode === 409)?.json()).toMatchObject({ code: 'last_admin' });
      expect(await t.db.select({ id: users.id }).from(users).where(eq(users.isAdmin, true))).toHaveLength(1);
    }
  });
});
