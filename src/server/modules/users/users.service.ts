import { type AuthUser, isUnlimitedStatus, toDisplayName, type UserStatus } from '../../../shared/auth';
import { toCredits } from '../../../shared/money/credits';
import type { ServiceContext } from '../../context';
import type { Executor } from '../../db/client';
import type { UserRow } from '../../db/schema';
import { conflict } from '../../lib/app-error';
import * as repo from './users.repository';

export const EMAIL_TAKEN_MESSAGE = 'An account with this email already exists';

/**
 * Creates an account. The first account ever created on the installation becomes the
 * administrator with unlimited generation; the claim and the insert commit together.
 */
export async function createAccount(ctx: ServiceContext, data: repo.NewUser): Promise<UserRow> {
  return ctx.db.transaction(async (tx) => {
    const user = await repo.insertUser(tx, data);
    if (!user) throw conflict(EMAIL_TAKEN_MESSAGE, 'email_taken');
    if (await repo.claimFirstAdmin(tx)) return repo.makeUnlimitedAdmin(tx, user.id);
    return user;
  });
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
