import { REGISTRATION_CLOSED_CODE, REGISTRATION_CLOSED_MESSAGE } from '../../../shared/accounts';
import { type AuthUser, isTourId, type TourId, toDisplayName } from '../../../shared/auth';
import type { ServiceContext } from '../../context';
import type { Executor } from '../../db/client';
import type { UserRow } from '../../db/schema';
import { AppError, conflict, forbidden, notFound } from '../../lib/app-error';
import { applyCreditChange } from '../money/ledger.service';
import * as repo from './users.repository';

export const EMAIL_TAKEN_MESSAGE = 'An account with this email already exists';

/** How accounts are made on this server: the sign-up credits, and whether they wait for a verified email. */
export interface SignupPolicy {
  signupCreditsHundredths: number;
  /** Mail is configured: an account made with an unproven email gets its credits once it is verified. */
  creditsAwaitVerifiedEmail: boolean;
  /** New accounts are taken (REGISTRATION_OPEN); closed, only the installation's first account can be made. */
  registrationOpen: boolean;
}

/** The sign-up policy of this server's configuration. */
export function signupPolicy(ctx: ServiceContext): SignupPolicy {
  return {
    signupCreditsHundredths: ctx.config.accounts.signupCreditsHundredths,
    creditsAwaitVerifiedEmail: ctx.config.accounts.mail !== undefined,
    registrationOpen: ctx.config.accounts.registrationOpen,
  };
}

/**
 * Creates an account. The first account ever created on the installation becomes the
 * administrator with unlimited generation; the claim and the insert commit together.
 */
export async function createAccount(ctx: ServiceContext, data: repo.NewUser): Promise<UserRow> {
  return ctx.db.transaction(async (tx) => {
    // An external sign-in whose provider did not verify the email never keeps it from its owner.
    if (data.passwordHash) await repo.releaseUnprovenEmail(tx, data.email);
    return createAccountIn(tx, signupPolicy(ctx), data);
  });
}

/**
 * createAccount inside the caller's transaction (an external sign-in links its identity in the same
 * one). The sign-up credits (SIGNUP_CREDITS) are a ledger row of the same transaction, unless mail is
 * configured and the email is not yet proven: then they wait for grantPendingSignupCredits.
 */
export async function createAccountIn(tx: Executor, policy: SignupPolicy, data: repo.NewUser): Promise<UserRow> {
  // Closed to new accounts: the first (the administrator's, claimed in this transaction) is still made.
  if (!policy.registrationOpen && (await repo.isAdminClaimed(tx)))
    throw forbidden(REGISTRATION_CLOSED_MESSAGE, REGISTRATION_CLOSED_CODE);
  const waits = policy.creditsAwaitVerifiedEmail && !data.emailVerifiedAt && policy.signupCreditsHundredths > 0;
  const user = await repo.insertUser(tx, { ...data, signupCreditsPending: waits });
  if (!user) throw conflict(EMAIL_TAKEN_MESSAGE, 'email_taken');
  if (!waits && policy.signupCreditsHundredths > 0) await grantSignupCredits(tx, user.id, policy);
  if (await repo.claimFirstAdmin(tx)) return repo.makeUnlimitedAdmin(tx, user.id);
  // Two first accounts at once on a closed server: the one that lost the claim is not made (rolled back).
  if (!policy.registrationOpen) throw forbidden(REGISTRATION_CLOSED_MESSAGE, REGISTRATION_CLOSED_CODE);
  return (await repo.findUserById(tx, user.id)) ?? user;
}

async function grantSignupCredits(tx: Executor, userId: string, policy: SignupPolicy): Promise<void> {
  await applyCreditChange(tx, {
    userId,
    deltaHundredths: policy.signupCreditsHundredths,
    kind: 'grant',
    actor: 'system',
    reason: 'Sign-up credits',
  });
}

/**
 * Marks the user's email (as it is now) proven, in the caller's transaction, and grants sign-up
 * credits that were waiting for it: exactly once, however many verifications race (the flag is
 * cleared by one update). Answers whether this call verified it.
 */
export async function markEmailVerified(tx: Executor, policy: SignupPolicy, user: UserRow): Promise<boolean> {
  const changed = await repo.markEmailVerified(tx, user.id, user.email);
  if (policy.signupCreditsHundredths > 0 && (await repo.takePendingSignupCredits(tx, user.id))) {
    await grantSignupCredits(tx, user.id, policy);
  }
  return changed;
}

export const EMAIL_UNVERIFIED_MESSAGE =
  'Please verify your email address before making videos. Ask the administrator of this server for help.';

/**
 * Refuses (403 email_unverified) an account whose email was never verified when this server lets
 * only verified accounts spend (no mail, UNVERIFIED_ACCOUNTS_CAN_SPEND=false). Administrators pass.
 */
export function requireMaySpend(ctx: ServiceContext, user: UserRow): void {
  const { mail, unverifiedCanSpend } = ctx.config.accounts;
  if (mail || unverifiedCanSpend || user.isAdmin || user.emailVerifiedAt) return;
  throw forbidden(EMAIL_UNVERIFIED_MESSAGE, 'email_unverified');
}

/** Sets the user's name (the account page); answers the user as stored now. */
export async function updateName(
  ctx: ServiceContext,
  userId: string,
  name: { firstName: string; lastName: string | null },
): Promise<UserRow> {
  const user = await repo.updateName(ctx.db, userId, name);
  if (!user) throw notFound('User not found', 'user_not_found');
  return user;
}

/**
 * Whether another account holds this email, the way registration sees it: an account nobody proved
 * the email for and that has no password gives it up to its owner (releaseUnprovenEmail), so it does
 * not count.
 */
export async function isEmailTaken(tx: Executor, email: string, exceptUserId: string): Promise<boolean> {
  const holder = await repo.findUserByEmail(tx, email);
  if (!holder || holder.id === exceptUserId) return false;
  return holder.emailVerifiedAt !== null || holder.passwordHash !== null;
}

/**
 * Moves the account to a new email whose mailed link was just followed, in the caller's transaction:
 * the address is proven, an unproven holder without a password gives it up (as at registration), any
 * other holder makes it a 409. Sign-up credits waiting for a proven email are granted.
 */
export async function applyProvenEmail(
  tx: Executor,
  policy: SignupPolicy,
  userId: string,
  email: string,
): Promise<UserRow> {
  await repo.releaseUnprovenEmail(tx, email);
  if (await isEmailTaken(tx, email, userId)) throw conflict(EMAIL_TAKEN_MESSAGE, 'email_taken');
  const user = await repo.updateProvenEmail(tx, userId, email);
  if (!user) throw notFound('User not found', 'user_not_found');
  if (policy.signupCreditsHundredths > 0 && (await repo.takePendingSignupCredits(tx, user.id))) {
    await grantSignupCredits(tx, user.id, policy);
  }
  return (await repo.findUserById(tx, user.id)) ?? user;
}

/** The user with this email inside the caller's transaction, or null. */
export function findUserByEmailIn(tx: Executor, email: string): Promise<UserRow | null> {
  return repo.findUserByEmail(tx, email);
}

/** Sets a new password hash (a password reset), or removes it (null). */
export function setPasswordHash(tx: Executor, userId: string, passwordHash: string | null): Promise<void> {
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
    emailVerifiedAt: user.emailVerifiedAt?.toISOString() ?? null,
    firstName: user.firstName,
    lastName: user.lastName,
    displayName: toDisplayName(user),
    isAdmin: user.isAdmin,
    plan: user.plan,
    subscriptionStatus: user.subscriptionStatus,
    createdAt: user.createdAt.toISOString(),
    completedTours: user.completedTours.filter(isTourId),
  };
}

/** PUT /api/account/tours/:tour: the tour is not started again for this person, on any device. */
export async function completeTour(ctx: ServiceContext, userId: string, tour: TourId): Promise<TourId[]> {
  const tours = await repo.addCompletedTour(ctx.db, userId, tour);
  if (!tours) throw new AppError(401, 'unauthorized', 'Authentication required');
  return tours.filter(isTourId);
}

/** GET /api/user/status is one part of the balance (money/balance.service.ts). */
export { presentUserStatus } from '../money/balance.service';

/** The user with their row locked until the caller's transaction ends, or null. */
export function lockUser(tx: Executor, id: string): Promise<UserRow | null> {
  return repo.lockUser(tx, id);
}
