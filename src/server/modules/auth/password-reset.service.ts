import { createHash, randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { PASSWORD_RESET_VALID_MINUTES, type PasswordResetConfirm } from '../../../shared/accounts';
import type { ServiceContext } from '../../context';
import type { UserRow } from '../../db/schema';
import { AppError, notFound } from '../../lib/app-error';
import {
  findUserByEmail,
  findUserByEmailIn,
  findUserById,
  lockUser,
  markEmailVerified,
  setPasswordHash,
  signupPolicy,
} from '../users/users.service';
import * as auth from './auth.repository';
import { sendMail } from '../../lib/mailer';
import { hashPassword } from './password';
import * as repo from './password-reset.repository';
import { endWaysIn } from './ways-in.service';

export const RESET_TTL_MS = PASSWORD_RESET_VALID_MINUTES * 60 * 1000;
/** At most this many reset mails per account per hour, however often it is asked for. */
const MAILS_PER_ACCOUNT_PER_HOUR = 3;
export const RESET_LINK_INVALID_MESSAGE =
  'This reset link has expired or has already been used. Please ask for a new one.';

const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');

/** Mail being sent after its request was answered, per service context, so shutdown can wait for it. */
const pending = new WeakMap<ServiceContext, Set<Promise<void>>>();

/**
 * Creates a one-time link for the user (valid 30 minutes; only its hash is stored), bound to the
 * address it is mailed to: once the account's email changes, the link no longer works.
 */
async function createResetLink(ctx: ServiceContext, user: UserRow): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await repo.insertResetToken(ctx.db, {
    id: hashToken(token),
    userId: user.id,
    email: user.email,
    expiresAt: new Date(Date.now() + RESET_TTL_MS),
  });
  return `${ctx.config.publicUrl}/reset-password?token=${token}`;
}

/**
 * Answers at once and does the work afterwards: looking the email up, making the link and sending
 * the mail happen outside the request, so a known and an unknown email get the same answer in the
 * same time. Failures are logged, never shown.
 */
export function requestPasswordReset(ctx: ServiceContext, email: string, log: FastifyBaseLogger): void {
  const mail = ctx.config.accounts.mail;
  if (!mail) return;
  let tasks = pending.get(ctx);
  if (!tasks) pending.set(ctx, (tasks = new Set()));
  const task = (async () => {
    await new Promise((resolve) => setImmediate(resolve));
    const user = await findUserByEmail(ctx, email);
    if (!user) return;
    const since = new Date(Date.now() - 60 * 60 * 1000);
    if ((await repo.countRecentResetTokens(ctx.db, user.id, since)) >= MAILS_PER_ACCOUNT_PER_HOUR) {
      log.warn({ userId: user.id }, 'password reset mail not sent: hourly limit reached for this account');
      return;
    }
    await repo.deleteOldResetTokens(ctx.db, new Date(Date.now() - 24 * 60 * 60 * 1000));
    const link = await createResetLink(ctx, user);
    await sendMail(mail, resetMessage(user.email, link));
  })().catch((error: unknown) => {
    log.error({ err: error }, 'password reset mail could not be sent');
  });
  tasks.add(task);
  void task.finally(() => tasks.delete(task));
}

/** Waits for reset mail still being sent (graceful shutdown, tests). */
export async function settlePasswordResetMail(ctx: ServiceContext): Promise<void> {
  await Promise.all([...(pending.get(ctx) ?? [])]);
}

function resetMessage(to: string, link: string) {
  const minutes = PASSWORD_RESET_VALID_MINUTES;
  return {
    to,
    subject: 'Reset your Reelsmith password',
    text: `Someone (hopefully you) asked to reset the password of your Reelsmith account.\n\nChoose a new password here (the link works once, for ${minutes} minutes):\n${link}\n\nIf you did not ask for this, ignore this message: your password stays as it is.\n`,
    html: `<p>Someone (hopefully you) asked to reset the password of your Reelsmith account.</p><p><a href="${link}">Choose a new password</a> (the link works once, for ${minutes} minutes).</p><p>If you did not ask for this, ignore this message: your password stays as it is.</p>`,
  };
}

/**
 * Sets a new password from a reset link mailed to the account's current address: the link is used up
 * (one caller wins), every session, access token and other emailed link of the account ends (and
 * what `password_reset` ends in ways-in.service.ts), and its failed sign-ins are cleared. Answers the
 * user, for a fresh session.
 */
export async function confirmPasswordReset(ctx: ServiceContext, input: PasswordResetConfirm): Promise<UserRow> {
  const passwordHash = await hashPassword(input.password);
  return ctx.db.transaction(async (tx) => {
    const used = await repo.useResetToken(tx, hashToken(input.token));
    const user = used ? await lockUser(tx, used.userId) : null;
    // A link mailed to an address the account no longer has proves nothing about its owner now.
    if (!user || user.email !== used?.email) throw new AppError(400, 'reset_link_invalid', RESET_LINK_INVALID_MESSAGE);
    await setPasswordHash(tx, user.id, passwordHash);
    // The link came by mail, so the email is proven (and sign-up credits waiting for that are granted).
    const proves = await markEmailVerified(tx, signupPolicy(ctx), user);
    await endWaysIn(tx, user.id, 'password_reset', { proves });
    await auth.clearLoginFailures(tx, { email: user.email });
    return { ...((await findUserById(tx, user.id)) ?? user), passwordHash };
  });
}

/** The operator CLI's reset (servers without SMTP): a one-time link for the account with this email. */
export async function createResetLinkFor(ctx: ServiceContext, email: string): Promise<string> {
  const user = await findUserByEmailIn(ctx.db, email.trim().toLowerCase());
  if (!user) throw notFound(`No account uses ${email}.`, 'user_not_found');
  return createResetLink(ctx, user);
}
