import { createHash, randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { ServiceContext } from '../../context';
import type { UserRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { findUserById, lockUser, markEmailVerified, signupPolicy } from '../users/users.service';
import { removeSignInsLinkedBeforeProof } from './identities.service';
import * as repo from './email-verification.repository';
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
  let tasks = pending.get(ctx);
  if (!tasks) pending.set(ctx, (tasks = new Set()));
  const task = (async () => {
    await new Promise((resolve) => setImmediate(resolve));
    await repo.deleteOldVerificationTokens(ctx.db, new Date(Date.now() - 24 * 60 * 60 * 1000));
    const made = await createVerificationLink(ctx, userId, log);
    if (!made) return;
    const { user, link } = made;
    await sendMail(mail, verificationMessage(user.email, link));
  })().catch((error: unknown) => {
    log.error({ err: error }, 'verification mail could not be sent');
  });
  tasks.add(task);
  void task.finally(() => tasks.delete(task));
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
 * Verifies an email from a mailed link: the link is used up (one caller wins) and works only while the
 * account still has the address it was sent to. Grants sign-up credits that waited for it. Answers the user.
 */
export async function confirmEmailVerification(ctx: ServiceContext, token: string): Promise<UserRow> {
  return ctx.db.transaction(async (tx) => {
    const used = await repo.useVerificationToken(tx, hashToken(token));
    const user = used ? await findUserById(tx, used.userId) : null;
    if (!user || user.email !== used?.email) {
      throw new AppError(400, 'verification_link_invalid', VERIFY_LINK_INVALID_MESSAGE);
    }
    if (await markEmailVerified(tx, signupPolicy(ctx), user)) await removeSignInsLinkedBeforeProof(tx, user.id);
    await repo.expireUserVerificationTokens(tx, user.id);
    return (await findUserById(tx, user.id)) ?? user;
  });
}
