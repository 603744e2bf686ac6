import { readFileSync } from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCOUNT_DELETED_MESSAGE,
  EMAIL_CHANGE_UNAVAILABLE_MESSAGE,
  PASSWORD_CHANGED_MESSAGE,
  WRONG_PASSWORD_MESSAGE,
} from '../../../shared/accounts';
import { createTestApp, injectJson, sessionCookieFrom, type TestApp } from '../../../../tests/support/app';
import { createUser, credentialsOf, signIn, uniqueEmail, uploadFile } from '../../../../tests/support/factories';
import { startTestSmtpServer, type TestSmtpServer } from '../../../../tests/support/smtp';
import { adminAuditLog, passwordResetTokens, sessions, userIdentities, users } from '../../db/schema';
import { settleVerificationMail } from './email-verification.service';
import { hashPassword } from './password';

let smtp: TestSmtpServer;
let t: TestApp;
beforeAll(async () => {
  smtp = await startTestSmtpServer();
  t = await createTestApp({ SMTP_URL: smtp.url, MAIL_FROM: 'Reelsmith <no-reply@reelsmith.test>' });
});
afterAll(async () => {
  await t?.close();
  await settleVerificationMail(t.ctx);
  await smtp?.close();
});

let addressCounter = 0;
/** Each user's calls come from their own address, as the sign-in routes are limited per address. */
const nextAddress = () => `203.0.113.${(addressCounter += 1)}`;
const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, cookie: string, body?: unknown) =>
  injectJson(t.app, method, url, { cookie, body, remoteAddress: nextAddress() });
const me = async (cookie: string) => injectJson(t.app, 'GET', '/api/auth/user', { cookie });
const rowOf = async (id: string) => (await t.db.select().from(users).where(eq(users.id, id)))[0];

async function signedInUser(overrides: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(t.db, overrides);
  return { user, cookie: await signIn(t.app, user) };
}

/** The token of the next mail to `to` with this subject, as its reader would follow it. */
async function linkTokenFromNextMail(to: string, subject: string): Promise<string> {
  const mail = await smtp.nextMessage();
  expect(mail.to && 'text' in mail.to ? mail.to.text : '').toBe(to);
  expect(mail.subject).toBe(subject);
  const link = /(http:\/\/localhost:3000\/api\/auth\/verify-email\?token=[\w-]+)/.exec(mail.text ?? '')?.[1];
  expect(link).toBeDefined();
  return new URL(link ?? '').searchParams.get('token') ?? '';
}

describe('PATCH /api/account (name)', () => {
  it('changes the name with registration rules and answers the user', async () => {
    const { user, cookie } = await signedInUser();
    const response = await call('PATCH', '/api/account', cookie, { firstName: '  Ada ', lastName: '' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ firstName: 'Ada', lastName: null, displayName: 'Ada' });
    expect(await rowOf(user.id)).toMatchObject({ firstName: 'Ada', lastName: null });
  });

  it.each([
    ['an empty first name', { firstName: '  ', lastName: 'X' }, 'firstName: is required'],
    ['a first name of 101 characters', { firstName: 'a'.repeat(101), lastName: null }, 'firstName'],
    ['a control character', { firstName: 'Ada\u0000', lastName: null }, 'firstName'],
  ])('refuses %s with 400 and changes nothing', async (_name, body, words) => {
    const { user, cookie } = await signedInUser({ firstName: 'Kept' });
    const response = await call('PATCH', '/api/account', cookie, body);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(words);
    expect((await rowOf(user.id))?.firstName).toBe('Kept');
  });

  it('needs a session: 401 without one, and an access token is refused', async () => {
    expect((await injectJson(t.app, 'PATCH', '/api/account', { body: { firstName: 'A' } })).statusCode).toBe(401);
    const { cookie } = await signedInUser();
    const created = await call('POST', '/api/account/tokens', cookie, { name: 'bot', scopes: ['account:read'] });
    const token = created.json<{ token: string }>().token;
    const byToken = await injectJson(t.app, 'PATCH', '/api/account', {
      headers: { authorization: `Bearer ${token}` },
      body: { firstName: 'Bot' },
    });
    expect(byToken.statusCode).toBe(403);
    expect(byToken.json().code).toBe('token_not_allowed');
  });
});

describe('POST /api/account/email (a re-verified change)', () => {
  it('keeps the new address pending until the link mailed to it is followed, then moves the account', async () => {
    const { user, cookie } = await signedInUser();
    const newEmail = uniqueEmail('moved');
    const asked = await call('POST', '/api/account/email', cookie, {
      email: newEmail.toUpperCase(),
      currentPassword: user.password,
    });
    expect(asked.statusCode).toBe(202);
    expect(asked.json()).toMatchObject({ pendingEmail: newEmail });
    const token = await linkTokenFromNextMail(newEmail, 'Confirm your new Reelsmith email');
    const notice = await smtp.nextMessage();
    expect(notice.subject).toBe('Your Reelsmith email is about to change');
    expect(notice.to && 'text' in notice.to ? notice.to.text : '').toBe(user.email);

    // Until then the old address stays: it signs in, the new one does not.
    expect((await me(cookie)).json()).toMatchObject({ email: user.email });
    expect((await call('GET', '/api/account/email', cookie)).json()).toMatchObject({ pendingEmail: newEmail });
    await signIn(t.app, user);

    const done = await injectJson(t.app, 'POST', '/api/auth/verify-email', { body: { token } });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ email: newEmail });
    expect(done.json().emailVerifiedAt).not.toBeNull();
    expect((await call('GET', '/api/account/email', cookie)).json()).toEqual({
      pendingEmail: null,
      pendingUntil: null,
    });
    await signIn(t.app, { email: newEmail, password: user.password });
    await expect(signIn(t.app, user)).rejects.toThrow('401');

    // The link works once.
    const again = await injectJson(t.app, 'POST', '/api/auth/verify-email', { body: { token } });
    expect(again.statusCode).toBe(400);
  });

  it('drops an earlier pending change when a new one is asked for, and a cancelled one never applies', async () => {
    const { user, cookie } = await signedInUser();
    const first = uniqueEmail('first');
    await call('POST', '/api/account/email', cookie, { email: first, currentPassword: user.password });
    const firstToken = await linkTokenFromNextMail(first, 'Confirm your new Reelsmith email');
    await smtp.nextMessage();
    const second = uniqueEmail('second');
    await call('POST', '/api/account/email', cookie, { email: second, currentPassword: user.password });
    const secondToken = await linkTokenFromNextMail(second, 'Confirm your new Reelsmith email');
    await smtp.nextMessage();
    expect(
      (await injectJson(t.app, 'POST', '/api/auth/verify-email', { body: { token: firstToken } })).statusCode,
    ).toBe(400);
    const cancelled = await call('DELETE', '/api/account/email', cookie);
    expect(cancelled.json()).toEqual({ pendingEmail: null, pendingUntil: null });
    expect(
      (await injectJson(t.app, 'POST', '/api/auth/verify-email', { body: { token: secondToken } })).statusCode,
    ).toBe(400);
    expect((await rowOf(user.id))?.email).toBe(user.email);
  });

  it('refuses a wrong current password with 403, and a missing one with 400, sending nothing', async () => {
    const { user, cookie } = await signedInUser();
    const wrong = await call('POST', '/api/account/email', cookie, {
      email: uniqueEmail(),
      currentPassword: 'not my password',
    });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toMatchObject({ code: 'wrong_password', message: WRONG_PASSWORD_MESSAGE });
    const missing = await call('POST', '/api/account/email', cookie, { email: uniqueEmail() });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('currentPassword: is required');
    expect((await call('GET', '/api/account/email', cookie)).json().pendingEmail).toBeNull();
    expect((await rowOf(user.id))?.email).toBe(user.email);
  });

  it('answers a taken address with 409 as registration does, and a bad one with 400', async () => {
    const { user, cookie } = await signedInUser();
    const other = await createUser(t.db);
    const taken = await call('POST', '/api/account/email', cookie, {
      email: other.email,
      currentPassword: user.password,
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe('email_taken');
    for (const email of ['not-an-email', 'a@b', `${'x'.repeat(250)}@example.com`, 'line\nbreak@example.com']) {
      const bad = await call('POST', '/api/account/email', cookie, { email, currentPassword: user.password });
      expect(bad.statusCode).toBe(400);
    }
    const same = await call('POST', '/api/account/email', cookie, {
      email: user.email,
      currentPassword: user.password,
    });
    expect(same.statusCode).toBe(400);
    expect(same.json().code).toBe('email_unchanged');
    expect((await call('GET', '/api/account/email', cookie)).json().pendingEmail).toBeNull();
  });

  it('never moves an account back: a verification link to an address it no longer has does nothing', async () => {
    const first = uniqueEmail('first-address');
    const registered = await injectJson(t.app, 'POST', '/api/auth/register', {
      body: { email: first, password: 'correct horse battery', firstName: 'Reg' },
      remoteAddress: nextAddress(),
    });
    expect(registered.statusCode).toBe(201);
    const id = registered.json<{ id: string }>().id;
    const token = await linkTokenFromNextMail(first, 'Verify your Reelsmith email');
    // An administrator changed the address meanwhile.
    const second = uniqueEmail('second-address');
    await t.db.update(users).set({ email: second }).where(eq(users.id, id));
    const done = await injectJson(t.app, 'POST', '/api/auth/verify-email', { body: { token } });
    expect(done.statusCode).toBe(400);
    expect(await rowOf(id)).toMatchObject({ email: second, emailVerifiedAt: null });
  });

  it('refuses the change at the link when another account proved the address meanwhile', async () => {
    const { user, cookie } = await signedInUser();
    const wanted = uniqueEmail('wanted');
    await call('POST', '/api/account/email', cookie, { email: wanted, currentPassword: user.password });
    const token = await linkTokenFromNextMail(wanted, 'Confirm your new Reelsmith email');
    await smtp.nextMessage();
    await t.db.insert(users).values({ email: wanted, passwordHash: await hashPassword('someone else 1') });
    const done = await injectJson(t.app, 'POST', '/api/auth/verify-email', { body: { token } });
    expect(done.statusCode).toBe(409);
    expect((await rowOf(user.id))?.email).toBe(user.email);
  });
});

describe('POST /api/account/password', () => {
  it('changes the password, ends every other session and keeps this one', async () => {
    const { user, cookie } = await signedInUser();
    const otherDevice = await signIn(t.app, user);
    await t.db.insert(passwordResetTokens).values({
      id: `reset-${user.id}`,
      userId: user.id,
      email: user.email,
      expiresAt: new Date(Date.now() + 600_000),
    });
    const response = await call('POST', '/api/account/password', cookie, {
      currentPassword: user.password,
      newPassword: 'a brand new passphrase',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: PASSWORD_CHANGED_MESSAGE });
    expect((await me(cookie)).statusCode).toBe(200);
    expect((await me(otherDevice)).statusCode).toBe(401);
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(1);
    const [reset] = await t.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, user.id));
    expect(reset?.usedAt).not.toBeNull();
    await signIn(t.app, { email: user.email, password: 'a brand new passphrase' });
    await expect(signIn(t.app, user)).rejects.toThrow('401');
  });

  it('refuses a wrong current password (403) and a short new one (400), changing nothing', async () => {
    const { user, cookie } = await signedInUser();
    const before = (await rowOf(user.id))?.passwordHash;
    const wrong = await call('POST', '/api/account/password', cookie, {
      currentPassword: 'not my password',
      newPassword: 'a brand new passphrase',
    });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().code).toBe('wrong_password');
    const short = await call('POST', '/api/account/password', cookie, {
      currentPassword: user.password,
      newPassword: 'short',
    });
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toBe('newPassword: must be at least 8 characters');
    expect((await rowOf(user.id))?.passwordHash).toBe(before);
  });

  it('limits guesses at the current password per user', async () => {
    const { cookie } = await signedInUser();
    const codes: number[] = [];
    for (let i = 0; i < 11; i += 1) {
      const response = await call('POST', '/api/account/password', cookie, {
        currentPassword: `guess number ${i}`,
        newPassword: 'a brand new passphrase',
      });
      codes.push(response.statusCode);
    }
    expect(codes.slice(0, 10).every((code) => code === 403)).toBe(true);
    expect(codes[10]).toBe(429);
  });

  it("changes only the signed-in user's password: another user's session changes their own", async () => {
    const victim = await signedInUser();
    const intruder = await signedInUser();
    const response = await call('POST', '/api/account/password', intruder.cookie, {
      currentPassword: victim.user.password,
      newPassword: 'taken over passphrase',
    });
    // Both use the factory's password: the intruder changes their own account and nothing else.
    expect(response.statusCode).toBe(200);
    await signIn(t.app, victim.user);
    await expect(signIn(t.app, intruder.user)).rejects.toThrow('401');
  });
});

/** Columns that hold a user id, in every table: `user_id` and `*_user_id`. */
async function userIdColumns(): Promise<Array<{ table: string; column: string }>> {
  const result: unknown = await t.db.execute(
    sql`SELECT table_name AS "table", column_name AS "column" FROM information_schema.columns
        WHERE table_schema = 'public' AND (column_name = 'user_id' OR column_name LIKE '%\_user\_id') ORDER BY 1, 2`,
  );
  return (result as { rows: Array<{ table: string; column: string }> }).rows;
}

async function rowsNaming(userId: string): Promise<Record<string, number>> {
  const found: Record<string, number> = {};
  for (const { table, column } of await userIdColumns()) {
    const result: unknown = await t.db.execute(
      sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE ${sql.identifier(column)}::text = ${userId}`,
    );
    const n = (result as { rows: Array<{ n: number }> }).rows[0]?.n ?? 0;
    if (n > 0) found[`${table}.${column}`] = n;
  }
  return found;
}

describe('DELETE /api/account', () => {
  it('deletes the user and every row of theirs, ends the session and keeps only an anonymous audit row', async () => {
    const { user, cookie } = await signedInUser({ creditsHundredths: 500 });
    await signIn(t.app, user);
    await uploadFile(t.app, cookie, readFileSync(new URL('../../../../tests/fixtures/coffee.png', import.meta.url)));
    await call('POST', '/api/account/tokens', cookie, { name: 'bot', scopes: ['videos:read'] });
    await call('POST', '/api/video-generation', cookie, { description: 'A lighthouse at dusk' });
    await call('POST', '/api/account/email', cookie, { email: uniqueEmail('leaving'), currentPassword: user.password });
    await smtp.nextMessage();
    await smtp.nextMessage();
    const populated = await rowsNaming(user.id);
    expect(Object.keys(populated)).toEqual(
      expect.arrayContaining(['sessions.user_id', 'api_tokens.user_id', 'uploads.user_id', 'generations.user_id']),
    );

    const response = await call('DELETE', '/api/account', cookie, { password: user.password });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: ACCOUNT_DELETED_MESSAGE });
    expect(response.cookies.find((c) => c.name === 'rs_session')?.value).toBe('');
    expect((await me(cookie)).statusCode).toBe(401);

    expect(await rowsNaming(user.id)).toEqual({ 'admin_audit_log.target_user_id': 1 });
    const [audit] = await t.db.select().from(adminAuditLog).where(eq(adminAuditLog.targetUserId, user.id));
    expect(audit).toMatchObject({ actor: 'self', action: 'user.delete_self', targetEmail: null, before: null });
    expect(JSON.stringify(audit)).not.toContain(user.email);
  });

  it('refuses a wrong or missing password and keeps everything', async () => {
    const { user, cookie } = await signedInUser();
    const wrong = await call('DELETE', '/api/account', cookie, { password: 'not my password' });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().code).toBe('wrong_password');
    const typedEmail = await call('DELETE', '/api/account', cookie, { email: user.email });
    expect(typedEmail.statusCode).toBe(400);
    expect(typedEmail.json().message).toBe('password: is required');
    expect(await rowOf(user.id)).toBeDefined();
    expect((await me(cookie)).statusCode).toBe(200);
  });

  it('asks an account without a password to type its email', async () => {
    const { user, cookie } = await signedInUser();
    await t.db.update(users).set({ passwordHash: null }).where(eq(users.id, user.id));
    await t.db.insert(userIdentities).values({ userId: user.id, provider: 'google', subject: `g-${user.id}` });
    const mismatch = await call('DELETE', '/api/account', cookie, { email: 'someone@example.com' });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().code).toBe('confirmation_mismatch');
    const ok = await call('DELETE', '/api/account', cookie, { email: ` ${user.email.toUpperCase()} ` });
    expect(ok.statusCode).toBe(200);
    expect(await rowOf(user.id)).toBeUndefined();
    expect(await t.db.select().from(userIdentities).where(eq(userIdentities.userId, user.id))).toHaveLength(0);
  });

  it("deletes only the signed-in user's account: the password of another user is wrong here", async () => {
    const victim = await signedInUser({ password: 'victim password 1' });
    const intruder = await signedInUser();
    const response = await call('DELETE', '/api/account', intruder.cookie, { password: 'victim password 1' });
    expect(response.statusCode).toBe(403);
    expect(await rowOf(victim.user.id)).toBeDefined();
    expect(await rowOf(intruder.user.id)).toBeDefined();
  });

  it('refuses to delete the last administrator with 409, and lets one go when another remains', async () => {
    const fresh = await createTestApp();
    try {
      const only = await createUser(fresh.db, { isAdmin: true });
      const login = await injectJson(fresh.app, 'POST', '/api/auth/login', {
        body: credentialsOf(only),
      });
      const cookie = sessionCookieFrom(login);
      const refused = await injectJson(fresh.app, 'DELETE', '/api/account', {
        cookie,
        body: { password: only.password },
      });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().code).toBe('last_admin');
      expect(await fresh.db.select().from(users).where(eq(users.id, only.id))).toHaveLength(1);
      await createUser(fresh.db, { isAdmin: true });
      const ok = await injectJson(fresh.app, 'DELETE', '/api/account', { cookie, body: { password: only.password } });
      expect(ok.statusCode).toBe(200);
    } finally {
      await fresh.close();
    }
  });
});

describe('without mail', () => {
  it('says an email change needs the administrator, and the sign-in options name the contact', async () => {
    const bare = await createTestApp({ OPERATOR_CONTACT: 'help@operator.example' });
    try {
      const user = await createUser(bare.db);
      const cookie = await signIn(bare.app, user);
      const response = await injectJson(bare.app, 'POST', '/api/account/email', {
        cookie,
        body: { email: uniqueEmail(), currentPassword: user.password },
      });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({
        code: 'email_change_unavailable',
        message: EMAIL_CHANGE_UNAVAILABLE_MESSAGE,
      });
      const options = await injectJson(bare.app, 'GET', '/api/auth/providers');
      expect(options.json()).toMatchObject({ passwordReset: false, operatorContact: 'help@operator.example' });
    } finally {
      await bare.close();
    }
  });
});
