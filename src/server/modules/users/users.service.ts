import { type AuthUser, isUnlimitedStatus, toDisplayName, type UserStatus } from '../../../shared/auth';
import { toCredits } from '../../../shared/money/credits';
import type { ServiceContext } from '../../context';
import type { Executor } from '../../db/client';
import type { UserRow } from '../../db/schema';
import { conflict } from '../../lib/app-error';
import { applyCreditChange } from '../money/ledger.service';
import * as repo from './users.repository';

export const EMAIL_TAKEN_MESSAGE = 'An account with this email already exists';

/**
 * Creates an account. The first account ever created on the installation becomes the
 * administrator with unlimited generation; the claim and the insert commit together.
 */
export async function createAccount(ctx: ServiceContext, data: repo.NewUser): Promise<UserRow> {
  return ctx.db.transaction((tx) => createAccountIn(tx, ctx.config.accounts.signupCreditsHundredths, data));
}

/**
 * createAccount inside the caller's transaction (an external sign-in links its identity in the same
 * one). The sign-up credits (SIGNUP_CREDITS) are a ledger row of the same transaction.
 */
export async function createAccountIn(
  tx: Executor,
  signupCreditsHundredths: number,
  data: repo.NewUser,
): Promise<UserRow> {
  const user = await repo.insertUser(tx, data);
  if (!user) throw conflict(EMAIL_TAKEN_MESSAGE, 'email_taken');
  if (signupCreditsHundredths > 0) {
    await applyCreditChange(tx, {
      userId: user.id,
      deltaHundredths: signupCreditsHundredths,
      kind: 'grant',
      actor: 'system',
      reason: 'Sign-up credits',
    });
  }
  if (await repo.claimFirstAdmin(tx)) return repo.makeUnlimitedAdmin(tx, user.id);
  return (await repo.findUserById(tx, user.id)) ?? user;
}

/** The user with this email inside the caller's transaction, or null. */
export function findUserByEmailIn(tx: Executor, email: string): Promise<UserRow | null> {
  return repo.findUserByEmail(tx, email);
}

/** Sets a new password hash (a password reset). */
export function setPasswordHash(tx: Executor, userId: string, passwordHash: string): Promise<void> {
  return repo.updatePasswordHash(tx, userId, passwordHash);
}

export function findUserByEmail(ctx: ServiceContext, email: string): Promise<UserRow | null> {
  return repo.findUserByEmail(ctx.db, email);
}

/** The user as stored now, inside the caller's transaction when given one. */
export function findUserById(tx: Executor, id: string): Promise<UserRow | null> {
  return repo.findUserById(tx, id);
}

export function presentAuthUser(user: UserRow): AuthUser {
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    displayName: toDisplayName(user),
    isAdmin: user.isAdmin,
    plan: user.plan,
    subscriptionStatus: user.subscriptionStatus,
    createdAt: user.createdAt.toISOString(),
  };
}

export function presentUserStatus(user: UserRow): UserStatus {
  return {
    availableCredits: toCredits(user.creditsHundredths),
    isUnlimited: isUnlimitedStatus(user.subscriptionStatus),
    plan: user.plan,
  };
}

/** The user with their row locked until the caller's transaction ends, or null. */
export function lockUser(tx: Executor, id: string): Promise<UserRow | null> {
  return repo.lockUser(tx, id);
}
