import type { FastifyBaseLogger } from 'fastify';
import {
  type AccountDelete,
  type AccountName,
  type EmailChange,
  type EmailChangeStatus,
  DELETE_CONFIRMATION_MESSAGE,
  NO_PASSWORD_MESSAGE,
  type PasswordChange,
  WRONG_PASSWORD_MESSAGE,
} from '../../../shared/accounts';
import type { ServiceContext } from '../../context';
import type { UserRow } from '../../db/schema';
import { AppError, badRequest, conflict, forbidden } from '../../lib/app-error';
import { lockUser, setPasswordHash, updateName } from '../users/users.service';
import { findPendingEmailChange, requestEmailChange } from './email-verification.service';
import { hashPassword, verifyPassword } from './password';
import { endWaysIn } from './ways-in.service';

/** A missing field, in the words of a validation answer, so the client shows it beside the field. */
const missing = (field: string) => new AppError(400, 'validation_failed', `${field}: is required`);

/** Refuses (403 wrong_password) unless `password` is the account's current password. */
async function requireCurrentPassword(user: UserRow, password: string | undefined, field: string): Promise<void> {
  if (!user.passwordHash) return;
  if (!password) throw missing(field);
  if (!(await verifyPassword(user.passwordHash, password))) throw forbidden(WRONG_PASSWORD_MESSAGE, 'wrong_password');
}

/** Sets the signed-in user's name; answers the user as stored now. */
export function renameAccount(ctx: ServiceContext, user: UserRow, name: AccountName): Promise<UserRow> {
  return updateName(ctx, user.id, name);
}

/** The signed-in user's pending email change, if any. */
export async function emailChangeStatus(ctx: ServiceContext, user: UserRow): Promise<EmailChangeStatus> {
  const pending = await findPendingEmailChange(ctx, user.id);
  return { pendingEmail: pending?.email ?? null, pendingUntil: pending?.expiresAt.toISOString() ?? null };
}

/**
 * Asks to move the account to a new email (the current password first, for an account that has
 * one): the new address is pending until the link mailed to it is followed. A taken address is a
 * 409, as registration answers.
 */
export async function changeEmail(
  ctx: ServiceContext,
  user: UserRow,
  input: EmailChange,
  log: FastifyBaseLogger,
): Promise<EmailChangeStatus> {
  await requireCurrentPassword(user, input.currentPassword, 'currentPassword');
  if (input.email === user.email) throw badRequest('That is already your email.', 'email_unchanged');
  const pending = await requestEmailChange(ctx, user, input.email, log);
  return { pendingEmail: pending.email, pendingUntil: pending.expiresAt.toISOString() };
}

/**
 * Changes the password after checking the current one, with registration's rules for the new one:
 * every other session and every access token ends, `sessionId` (this browser) is kept, and pending
 * reset and email-change links stop working (`password_change` in ways-in.service.ts).
 */
export async function changePassword(
  ctx: ServiceContext,
  user: UserRow,
  sessionId: string,
  input: PasswordChange,
): Promise<void> {
  if (!user.passwordHash) throw conflict(NO_PASSWORD_MESSAGE, 'no_password');
  await requireCurrentPassword(user, input.currentPassword, 'currentPassword');
  const passwordHash = await hashPassword(input.newPassword);
  await ctx.db.transaction(async (tx) => {
    await lockUser(tx, user.id);
    await setPasswordHash(tx, user.id, passwordHash);
    await endWaysIn(tx, user.id, 'password_change', { proves: false, keepSessionId: sessionId });
  });
}

/**
 * Checks that the signed-in user confirmed deleting their account: their password, or for an account
 * without one, their email typed out. The route then deletes it as an administrator's deletion does
 * (workflows/delete-account.ts).
 */
export async function confirmAccountDeletion(user: UserRow, input: AccountDelete): Promise<void> {
  if (user.passwordHash) await requireCurrentPassword(user, input.password, 'password');
  else if (!input.email) throw missing('email');
  else if (input.email !== user.email) throw badRequest(DELETE_CONFIRMATION_MESSAGE, 'confirmation_mismatch');
}
