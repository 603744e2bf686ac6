import { createHash, randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { EMAIL_CHANGE_UNAVAILABLE_MESSAGE } from '../../../shared/accounts';
import type { ServiceContext } from '../../context';
import type { UserRow } from '../../db/schema';
import { AppError, conflict, tooManyRequests } from '../../lib/app-error';
import type { Executor } from '../../db/client';
import {
  applyProvenEmail,
  EMAIL_TAKEN_MESSAGE,
  findUserById,
  isEmailTaken,
  lockUser,
  markEmailVerified,
  signupPolicy,
} from '../users/users.service';
import * as repo from './email-verification.repository';
import { endWaysIn } from './ways-in.service';
import { sendMail } from '../../lib/mailer';

export const VERIFY_VALID_HOURS = 24;
const VERIFY_TTL_MS = VERIFY_VALID_HOURS * 60 * 60 * 1000;
/** At most this many verification mails per account per hour (the first one at registration counts). */
export const VERIFY_MAILS_PER_ACCOUNT_PER_HOUR = 3;
export const VERIFY_LINK_INVALID_MESSAGE =
  'This verification link has expired or has already been used. Sign in and ask for a new one.';

const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');

/** Mail being sent after its request was answered, per service context, so shutdown can wait for it. */
const pending = new WeakMap<ServiceContext, Set<Promise<void>>>();

/**
 * Mails the user a verification link, after the request was answered (no mail without SMTP_URL, none
 * once verified, none past the hourly limit). Failures are logged, never shown.
 */
export function sendVerificationMail(ctx: ServiceContext, userId: string, log: FastifyBaseLogger): void {
  const mail = ctx.config.accounts.mail;
  if (!mail) return;
  sendAfterAnswer(ctx, log, async () => {
    await repo.deleteOldVerificationTokens(ctx.db, new Date(Date.now() - 24 * 60 * 60 * 1000));
    const made = await createVerificationLink(ctx, userId, log);
    if (!made) return;
    const { user, link } = made;
    await sendMail(mail, verificationMessage(user.email, link));
  });
}

/**
 * Runs `work` (sending mail) after the request was answered, kept in this context's pending set so
 * shutdown and tests can wait for it. Failures are logged, never shown.
 */
export function sendAfterAnswer(ctx: ServiceContext, log: FastifyBaseLogger, work: () => Promise<void>): void {
  let tasks = pending.get(ctx);
  if (!tasks) pending.set(ctx, (tasks = new Set()));
  const task = (async () => {
    await new Promise((resolve) => setImmediate(resolve));
    await work();
  })().catch((error: unknown) => {
    log.error({ err: error }, 'verification mail could not be sent');
  });
  tasks.add(task);
  void task.finally(() => tasks.delete(task));
}

/** 429 when the account had its hourly share of mails; an email change says so instead of staying silent. */
const tooManyMails = () =>
  tooManyRequests(
    `At most ${VERIFY_MAILS_PER_ACCOUNT_PER_HOUR} emails an hour are sent for one account. Please try again later.`,
    60 * 60,
    'too_many_emails',
  );

/**
 * Keeps `email` as the account's pending address and mails it a link (after the answer); the
 * account's email changes only when the link is followed. An earlier pending change is dropped.
 * Mails to the account share the hourly limit of verification mails. Answers the pending change.
 */
export async function requestEmailChange(
  ctx: ServiceContext,
  user: UserRow,
  email: string,
  log: FastifyBaseLogger,
): Promise<{ email: string; expiresAt: Date }> {
  const mail = ctx.config.accounts.mail;
  if (!mail) throw new AppError(404, 'email_change_unavailable', EMAIL_CHANGE_UNAVAILABLE_MESSAGE);
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + VERIFY_TTL_MS);
  await ctx.db.transaction(async (tx) => {
    const locked = await lockUser(tx, user.id);
    if (!locked) throw new AppError(404, 'user_not_found', 'User not found');
    if (await isEmailTaken(tx, email, user.id)) throw conflict(EMAIL_TAKEN_MESSAGE, 'email_taken');
    const since = new Date(Date.now() - 60 * 60 * 1000);
    if ((await repo.countRecentVerificationTokens(tx, user.id, since)) >= VERIFY_MAILS_PER_ACCOUNT_PER_HOUR) {
      throw tooManyMails();
    }
    await repo.expireUserTokensOfPurpose(tx, user.id, 'change');
    await repo.insertVerificationToken(tx, {
      id: hashToken(token),
      userId: user.id,
      email,
      expiresAt,
      purpose: 'change',
    });
  });
  const link = `${ctx.config.publicUrl}/api/auth/verify-email?token=${token}`;
  sendAfterAnswer(ctx, log, async () => {
    await sendMail(mail, emailChangeMessage(email, link));
    // The old address hears of it too: if someone else asked, its owner knows to act.
    await sendMail(mail, emailChangeNotice(user.email, email));
  });
  return { email, expiresAt };
}

/** The address waiting for its link, if any. */
export function findPendingEmailChange(
  ctx: ServiceContext,
  userId: string,
): Promise<{ email: string; expiresAt: Date } | null> {
  return repo.findPendingEmailChange(ctx.db, userId);
}

/** Drops the pending email change: its link stops working. */
export async function cancelEmailChange(ctx: ServiceContext, userId: string): Promise<void> {
  await repo.expireUserTokensOfPurpose(ctx.db, userId, 'change');
}

function emailChangeMessage(to: string, link: string) {
  const hours = VERIFY_VALID_HOURS;
  return {
    to,
    subject: 'Confirm your new Reelsmith email',
    text: `Someone (hopefully you) asked to use this email for their Reelsmith account.\n\nConfirm it here (the link works once, for ${hours} hours):\n${link}\n\nIf you did not ask for this, ignore this message: nothing changes without this link.\n`,
    html: `<p>Someone (hopefully you) asked to use this email for their Reelsmith account.</p><p><a href="${link}">Confirm your new email</a> (the link works once, for ${hours} hours).</p><p>If you did not ask for this, ignore this message: nothing changes without this link.</p>`,
  };
}

function emailChangeNotice(to: string, newEmail: string) {
  return {
    to,
    subject: 'Your Reelsmith email is about to change',
    text: `Someone signed in to your Reelsmith account asked to change its email to ${newEmail}. It changes only when a link mailed to that address is followed.\n\nIf this was not you, sign in, cancel the change on your account page and change your password.\n`,
    html: `<p>Someone signed in to your Reelsmith account asked to change its email to ${escapeHtml(newEmail)}. It changes only when a link mailed to that address is followed.</p><p>If this was not you, sign in, cancel the change on your account page and change your password.</p>`,
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Waits for verification mail still being sent (graceful shutdown, tests). */
export async function settleVerificationMail(ctx: ServiceContext): Promise<void> {
  await Promise.all([...(pending.get(ctx) ?? [])]);
}

/**
 * Makes a link for the user unless they are verified or past the hourly limit. The user's row lock
 * makes the count and the insert one step, so concurrent resends cannot all pass the limit.
 */
async function createVerificationLink(
  ctx: ServiceContext,
  userId: string,
  log: FastifyBaseLogger,
): Promise<{ user: UserRow; link: string } | null> {
  return ctx.db.transaction(async (tx) => {
    const user = await lockUser(tx, userId);
    if (!user || user.emailVerifiedAt) return null;
    const since = new Date(Date.now() - 60 * 60 * 1000);
    if ((await repo.countRecentVerificationTokens(tx, user.id, since)) >= VERIFY_MAILS_PER_ACCOUNT_PER_HOUR) {
      log.warn({ userId: user.id }, 'verification mail not sent: hourly limit reached for this account');
      return null;
    }
    const token = randomBytes(32).toString('base64url');
    await repo.insertVerificationToken(tx, {
      id: hashToken(token),
      userId: user.id,
      email: user.email,
      expiresAt: new Date(Date.now() + VERIFY_TTL_MS),
    });
    return { user, link: `${ctx.config.publicUrl}/api/auth/verify-email?token=${token}` };
  });
}

function verificationMessage(to: string, link: string) {
  const hours = VERIFY_VALID_HOURS;
  return {
    to,
    subject: 'Verify your Reelsmith email',
    text: `Someone (hopefully you) made a Reelsmith account with this email.\n\nVerify it here (the link works once, for ${hours} hours):\n${link}\n\nIf you did not make this account, ignore this message: nobody can verify it without this link.\n`,
    html: `<p>Someone (hopefully you) made a Reelsmith account with this email.</p><p><a href="${link}">Verify your email</a> (the link works once, for ${hours} hours).</p><p>If you did not make this account, ignore this message: nobody can verify it without this link.</p>`,
  };
}

/**
 * Verifies an email from a mailed link: the link is used up (one caller wins). A link to the account's
 * address proves it and grants sign-up credits that waited for it; a link to another address (an email
 * change asked for on /account) moves the account to it. Each ends what its event ends
 * (`email_proven`, `email_change` in ways-in.service.ts). Answers the user.
 */
export async function confirmEmailVerification(ctx: ServiceContext, token: string): Promise<UserRow> {
  return ctx.db.transaction(async (tx) => {
    const used = await repo.useVerificationToken(tx, hashToken(token));
    const user = used ? await lockUser(tx, used.userId) : null;
    if (!user || !used) throw new AppError(400, 'verification_link_invalid', VERIFY_LINK_INVALID_MESSAGE);
    if (used.purpose === 'change') return confirmEmailChange(tx, ctx, user, used.email);
    // A link to an address the account no longer has (an administrator changed it) proves nothing.
    if (user.email !== used.email) throw new AppError(400, 'verification_link_invalid', VERIFY_LINK_INVALID_MESSAGE);
    if (await markEmailVerified(tx, signupPolicy(ctx), user))
      await endWaysIn(tx, user.id, 'email_proven', { proves: true });
    await repo.expireUserTokensOfPurpose(tx, user.id, 'verify');
    return (await findUserById(tx, user.id)) ?? user;
  });
}

/**
 * The account moves to the address its link was mailed to; every other emailed link of the account
 * ends (a reset link mailed to the old address among them). An account with a password whose old
 * address was never proven loses what was made meanwhile, as when an address is first proven; one
 * without a password keeps its sign-ins (they are its only way in). See `email_change` in ways-in.service.ts.
 */
async function confirmEmailChange(tx: Executor, ctx: ServiceContext, user: UserRow, email: string): Promise<UserRow> {
  const changed = await applyProvenEmail(tx, signupPolicy(ctx), user.id, email);
  const proves = !user.emailVerifiedAt && user.passwordHash !== null;
  await endWaysIn(tx, user.id, 'email_change', { proves });
  return changed;
}
