import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD_RESET_REQUESTED_MESSAGE } from '../../../shared/accounts';
import { createTestApp, injectJson, sessionCookieFrom, type TestApp } from '../../../../tests/support/app';
import { createUser, credentialsOf, signIn, uniqueEmail } from '../../../../tests/support/factories';
import { startTestSmtpServer, type TestSmtpServer } from '../../../../tests/support/smtp';
import { loginFailures, passwordResetTokens } from '../../db/schema';
import { PAIR_FAILURE_LIMIT } from './auth.service';
import { settlePasswordResetMail } from './password-reset.service';

let smtp: TestSmtpServer;
let t: TestApp;
beforeAll(async () => {
  smtp = await startTestSmtpServer();
  t = await createTestApp({ SMTP_URL: smtp.url, MAIL_FROM: 'Reelsmith <no-reply@reelsmith.test>' });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

let addressCounter = 0;
/** Each test asks from its own address: the reset request is rate limited per address. */
const nextAddress = () => `203.0.113.${(addressCounter += 1)}`;

const requestReset = (email: string, remoteAddress = nextAddress()) =>
  injectJson(t.app, 'POST', '/api/auth/password-reset', { body: { email }, remoteAddress });
const confirm = (token: string, password: string) =>
  injectJson(t.app, 'POST', '/api/auth/password-reset/confirm', {
    body: { token, password },
    remoteAddress: nextAddress(),
  });

/** Follows the mail as its reader would: the link's token. */
async function tokenFromNextMail(to: string): Promise<string> {
  const mail = await smtp.nextMessage();
  expect(mail.to && 'text' in mail.to ? mail.to.text : '').toBe(to);
  expect(mail.from?.value).toEqual([{ name: 'Reelsmith', address: 'no-reply@reelsmith.test' }]);
  expect(mail.subject).toBe('Reset your Reelsmith password');
  const link = /(http:\/\/localhost:3000\/reset-password\?token=[\w-]+)/.exec(mail.text ?? '')?.[1];
  expect(link).toBeDefined();
  expect(mail.html).toContain(`href="${link}"`);
  return new URL(link ?? '').searchParams.get('token') ?? '';
}

describe('password reset by email', () => {
  it('mails a one-time link that sets a new password, ends every other session and refuses to work twice', async () => {
    const user = await createUser(t.db);
    const laptop = await signIn(t.app, user);
    const phone = await signIn(t.app, user);

    const asked = await requestReset(user.email.toUpperCase());
    expect(asked.statusCode).toBe(202);
    expect(asked.json()).toEqual({ message: PASSWORD_RESET_REQUESTED_MESSAGE });
    const token = await tokenFromNextMail(user.email);
    const [stored] = await t.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, user.id));
    expect(stored?.id).not.toBe(token);

    const done = await confirm(token, 'a brand new password');
    expect(done.statusCode).toBe(200);
    expect(done.json().email).toBe(user.email);
    const fresh = sessionCookieFrom(done);
    expect((await injectJson(t.app, 'GET', '/api/auth/user', { cookie: fresh })).statusCode).toBe(200);
    for (const cookie of [laptop, phone])
      expect((await injectJson(t.app, 'GET', '/api/auth/user', { cookie })).statusCode).toBe(401);

    expect(
      (
        await injectJson(t.app, 'POST', '/api/auth/login', {
          body: credentialsOf(user),
          remoteAddress: nextAddress(),
        })
      ).statusCode,
    ).toBe(401);
    await signIn(t.app, { email: user.email, password: 'a brand new password' });

    const again = await confirm(token, 'yet another password');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({
      code: 'reset_link_invalid',
      message: 'This reset link has expired or has already been used. Please ask for a new one.',
    });
  });

  it('refuses a link after 30 minutes', async () => {
    const user = await createUser(t.db);
    await requestReset(user.email);
    const token = await tokenFromNextMail(user.email);
    await t.db
      .update(passwordResetTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(passwordResetTokens.userId, user.id));
    const late = await confirm(token, 'too late password');
    expect(late.statusCode).toBe(400);
    expect(late.json().code).toBe('reset_link_invalid');
    await signIn(t.app, user);
  });

  it('makes the link valid for 30 minutes', async () => {
    const user = await createUser(t.db);
    const before = Date.now();
    await requestReset(user.email);
    await tokenFromNextMail(user.email);
    const [row] = await t.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, user.id));
    const minutes = ((row?.expiresAt.getTime() ?? 0) - before) / 60_000;
    expect(minutes).toBeGreaterThan(29.9);
    expect(minutes).toBeLessThan(30.2);
  });

  it('answers a known and an unknown email identically, and mails only the known one', async () => {
    const user = await createUser(t.db);
    const known = await requestReset(user.email);
    const unknown = await requestReset(uniqueEmail('nobody'));
    const comparable = (r: typeof known) => {
      const { date: _date, ...headers } = r.headers;
      return { status: r.statusCode, body: r.body, headers };
    };
    expect(comparable(unknown)).toEqual(comparable(known));
    await settlePasswordResetMail(t.ctx);
    await tokenFromNextMail(user.email);
    expect(smtp.messages.filter((m) => m.to && 'text' in m.to && m.to.text.includes('nobody'))).toHaveLength(0);
  });

  it('answers before the mail is sent: a slow mail server does not show in the answer time', async () => {
    const user = await createUser(t.db);
    smtp.setDelay(1500);
    try {
      const started = Date.now();
      const response = await requestReset(user.email);
      expect(response.statusCode).toBe(202);
      expect(Date.now() - started).toBeLessThan(1000);
      await tokenFromNextMail(user.email);
    } finally {
      smtp.setDelay(0);
    }
  });

  it('clears the account\u2019s failed sign-ins when the reset succeeds', async () => {
    const user = await createUser(t.db);
    const ip = nextAddress();
    for (let i = 0; i < PAIR_FAILURE_LIMIT; i += 1) {
      await injectJson(t.app, 'POST', '/api/auth/login', {
        body: { email: user.email, password: `typo-${i}` },
        remoteAddress: ip,
      });
    }
    expect(
      (
        await injectJson(t.app, 'POST', '/api/auth/login', {
          body: credentialsOf(user),
          remoteAddress: ip,
        })
      ).statusCode,
    ).toBe(429);
    await requestReset(user.email);
    await confirm(await tokenFromNextMail(user.email), 'recovered password');
    expect(await t.db.select().from(loginFailures).where(eq(loginFailures.email, user.email))).toHaveLength(0);
    const back = await injectJson(t.app, 'POST', '/api/auth/login', {
      body: { email: user.email, password: 'recovered password' },
      remoteAddress: ip,
    });
    expect(back.statusCode).toBe(200);
  });

  it('refuses a new password shorter than 8 characters and keeps the link usable', async () => {
    const user = await createUser(t.db);
    await requestReset(user.email);
    const token = await tokenFromNextMail(user.email);
    expect((await confirm(token, 'short')).statusCode).toBe(400);
    expect((await confirm(token, 'long enough now')).statusCode).toBe(200);
  });
});

describe('password reset without SMTP', () => {
  it('is not offered', async () => {
    const plain = await createTestApp();
    try {
      expect((await injectJson(plain.app, 'GET', '/api/auth/providers')).json().passwordReset).toBe(false);
      const response = await injectJson(plain.app, 'POST', '/api/auth/password-reset', {
        body: { email: 'a@example.com' },
      });
      expect(response.statusCode).toBe(404);
      expect(response.json().code).toBe('password_reset_unavailable');
    } finally {
      await plain.close();
    }
  });
});
