import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERIFICATION_RESENT_MESSAGE } from '../../../shared/accounts';
import { createTestApp, injectJson, sessionCookieFrom, type TestApp } from '../../../../tests/support/app';
import { uniqueEmail } from '../../../../tests/support/factories';
import { startTestSmtpServer, type TestSmtpServer } from '../../../../tests/support/smtp';
import { creditLedger, emailVerificationTokens, users } from '../../db/schema';
import { settlePasswordResetMail } from './password-reset.service';
import { settleVerificationMail } from './email-verification.service';

let smtp: TestSmtpServer;
let t: TestApp;
beforeAll(async () => {
  smtp = await startTestSmtpServer();
  t = await createTestApp({ SMTP_URL: smtp.url, MAIL_FROM: 'Reelsmith <no-reply@reelsmith.test>' });
  // The first account ever is the unlimited administrator; these tests are about everyone else.
  await register(uniqueEmail());
  await smtp.nextMessage();
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

let addressCounter = 0;
/** Each request comes from its own address: the routes are rate limited per address. */
const nextAddress = () => `198.51.100.${(addressCounter += 1)}`;

async function register(email: string) {
  const response = await injectJson(t.app, 'POST', '/api/auth/register', {
    body: { email, password: 'correct horse battery', firstName: 'Owner', lastName: null },
    remoteAddress: nextAddress(),
  });
  expect(response.statusCode).toBe(201);
  return { cookie: sessionCookieFrom(response), user: response.json<{ id: string; emailVerifiedAt: string | null }>() };
}

/** Follows the mail as its reader would: the link's token. */
async function tokenFromNextMail(to: string): Promise<string> {
  const mail = await smtp.nextMessage();
  expect(mail.to && 'text' in mail.to ? mail.to.text : '').toBe(to);
  expect(mail.subject).toBe('Verify your Reelsmith email');
  expect(mail.text).toContain('works once, for 24 hours');
  const link = /(http:\/\/localhost:3000\/api\/auth\/verify-email\?token=[\w-]+)/.exec(mail.text ?? '')?.[1];
  expect(link).toBeDefined();
  expect(mail.html).toContain(`href="${link}"`);
  return new URL(link ?? '').searchParams.get('token') ?? '';
}

const verify = (token: string) =>
  injectJson(t.app, 'POST', '/api/auth/verify-email', { body: { token }, remoteAddress: nextAddress() });
const generate = (cookie: string) =>
  injectJson(t.app, 'POST', '/api/video-generation', { cookie, body: { prompt: 'A first video' } });
const me = async (cookie: string) =>
  (await injectJson(t.app, 'GET', '/api/auth/user', { cookie })).json<{ emailVerifiedAt: string | null }>();
const signupGrants = async (userId: string) =>
  (await t.db.select().from(creditLedger).where(eq(creditLedger.userId, userId))).filter(
    (row) => row.reason === 'Sign-up credits',
  ).length;

describe('email verification with mail configured', () => {
  it('mails a one-time link at registration that verifies the email and grants the sign-up credit once', async () => {
    const email = uniqueEmail();
    const { cookie, user } = await register(email);
    expect(user.emailVerifiedAt).toBeNull();
    const token = await tokenFromNextMail(email);
    const [stored] = await t.db
      .select()
      .from(emailVerificationTokens)
      .where(eq(emailVerificationTokens.userId, user.id));
    expect(stored?.id).not.toBe(token);
    expect(stored && stored.expiresAt.getTime() - stored.createdAt.getTime()).toBeGreaterThan(23.9 * 3600_000);

    // The sign-up credit waits for the email: nothing to spend yet.
    expect(await signupGrants(user.id)).toBe(0);
    expect((await generate(cookie)).statusCode).toBe(402);

    const done = await verify(token);
    expect(done.statusCode).toBe(200);
    expect(done.json<{ emailVerifiedAt: string | null }>().emailVerifiedAt).not.toBeNull();
    expect((await me(cookie)).emailVerifiedAt).not.toBeNull();
    expect(await signupGrants(user.id)).toBe(1);
    expect((await generate(cookie)).statusCode).toBe(201);

    const again = await verify(token);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({
      code: 'verification_link_invalid',
      message: 'This verification link has expired or has already been used. Sign in and ask for a new one.',
    });
    expect(await signupGrants(user.id)).toBe(1);
  });

  it('grants the sign-up credit once when two verifications of one account race', async () => {
    const email = uniqueEmail();
    const { cookie, user } = await register(email);
    const first = await tokenFromNextMail(email);
    await injectJson(t.app, 'POST', '/api/auth/verify-email/resend', { cookie, remoteAddress: nextAddress() });
    const second = await tokenFromNextMail(email);
    const answers = await Promise.all([verify(first), verify(second)]);
    expect(answers.filter((a) => a.statusCode === 200).length).toBeGreaterThanOrEqual(1);
    expect(await signupGrants(user.id)).toBe(1);
  });

  it('opens a page from the mailed link that verifies nothing until its button is pressed', async () => {
    const email = uniqueEmail();
    const { cookie } = await register(email);
    const token = await tokenFromNextMail(email);
    const page = await t.app.inject({ method: 'GET', url: `/api/auth/verify-email?token=${token}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<form method="post" action="/api/auth/verify-email/form">');
    expect((await me(cookie)).emailVerifiedAt).toBeNull();

    const pressed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/verify-email/form',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost:3000' },
      payload: `token=${token}`,
    });
    expect(pressed.statusCode).toBe(303);
    expect(pressed.headers.location).toBe('/account');
    expect((await me(cookie)).emailVerifiedAt).not.toBeNull();

    const twice = await t.app.inject({
      method: 'POST',
      url: '/api/auth/verify-email/form',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost:3000' },
      payload: `token=${token}`,
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.body).toContain('has expired or has already been used');
  });

  it('resends at most three mails an hour per account, answering every resend the same', async () => {
    const email = uniqueEmail();
    const { cookie, user } = await register(email);
    await tokenFromNextMail(email);
    const answers = [];
    for (let i = 0; i < 4; i += 1) {
      answers.push(
        await injectJson(t.app, 'POST', '/api/auth/verify-email/resend', { cookie, remoteAddress: nextAddress() }),
      );
    }
    await settleVerificationMail(t.ctx);
    for (const answer of answers) {
      expect(answer.statusCode).toBe(202);
      expect(answer.json()).toEqual({ message: VERIFICATION_RESENT_MESSAGE });
    }
    const links = await t.db.select().from(emailVerificationTokens).where(eq(emailVerificationTokens.userId, user.id));
    expect(links).toHaveLength(3);
    await tokenFromNextMail(email);
    await tokenFromNextMail(email);
  });

  it('limits resends per address to 5 in 15 minutes', async () => {
    const { cookie } = await register(uniqueEmail());
    await smtp.nextMessage();
    const address = nextAddress();
    const statuses = [];
    for (let i = 0; i < 6; i += 1) {
      statuses.push(
        (await injectJson(t.app, 'POST', '/api/auth/verify-email/resend', { cookie, remoteAddress: address }))
          .statusCode,
      );
    }
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
    await settleVerificationMail(t.ctx);
    // The account's own limit let two of the five resends through.
    await smtp.nextMessage();
    await smtp.nextMessage();
  });

  it('counts a password reset as proof of the email: it verifies it and grants the waiting credit', async () => {
    const email = uniqueEmail();
    const { user } = await register(email);
    await settleVerificationMail(t.ctx);
    const verificationMail = await smtp.nextMessage();
    expect(verificationMail.subject).toBe('Verify your Reelsmith email');
    await injectJson(t.app, 'POST', '/api/auth/password-reset', { body: { email }, remoteAddress: nextAddress() });
    await settlePasswordResetMail(t.ctx);
    const mail = await smtp.nextMessage();
    const token = new URL(/(http:\S+reset-password\?token=[\w-]+)/.exec(mail.text ?? '')?.[1] ?? '').searchParams.get(
      'token',
    );
    const done = await injectJson(t.app, 'POST', '/api/auth/password-reset/confirm', {
      body: { token, password: 'a brand new password' },
      remoteAddress: nextAddress(),
    });
    expect(done.statusCode).toBe(200);
    expect(done.json<{ emailVerifiedAt: string | null }>().emailVerifiedAt).not.toBeNull();
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.emailVerifiedAt).not.toBeNull();
    expect(await signupGrants(user.id)).toBe(1);
  });
});

describe('without mail', () => {
  it('refuses videos to unverified accounts with UNVERIFIED_ACCOUNTS_CAN_SPEND=false, and serves them by default', async () => {
    const strict = await createTestApp({ UNVERIFIED_ACCOUNTS_CAN_SPEND: 'false' });
    const lenient = await createTestApp();
    try {
      for (const app of [strict, lenient]) {
        // The first account is the administrator, who always may.
        const first = await injectJson(app.app, 'POST', '/api/auth/register', {
          body: { email: uniqueEmail(), password: 'correct horse battery', firstName: 'Owner', lastName: 'Test' },
        });
        expect(first.statusCode).toBe(201);
      }
      const answers = [];
      for (const app of [strict, lenient]) {
        const registered = await injectJson(app.app, 'POST', '/api/auth/register', {
          body: { email: uniqueEmail(), password: 'correct horse battery', firstName: 'Owner', lastName: 'Test' },
        });
        answers.push(
          await injectJson(app.app, 'POST', '/api/video-generation', {
            cookie: sessionCookieFrom(registered),
            body: { prompt: 'A video' },
          }),
        );
      }
      expect(answers[0]?.statusCode).toBe(403);
      expect(answers[0]?.json()).toEqual({
        code: 'email_unverified',
        message:
          'Please verify your email address before making videos. Ask the administrator of this server for help.',
      });
      expect(answers[1]?.statusCode).toBe(201);
    } finally {
      await strict.close();
      await lenient.close();
    }
  });
});
