import { type AccountSignIns, REGISTRATION_CLOSED_CODE } from '../../../shared/accounts';
import type { ServiceContext } from '../../context';
import type { Executor } from '../../db/client';
import type { UserRow } from '../../db/schema';
import { AppError, conflict, notFound } from '../../lib/app-error';
import {
  createAccountIn,
  findUserByEmailIn,
  findUserById,
  lockUser,
  markEmailVerified,
  signupPolicy,
} from '../users/users.service';
import { type ExternalProfile, ExternalSignInError } from './external-sign-in.service';
import * as repo from './identities.repository';
import { endWaysIn } from './ways-in.service';

/** Thrown inside the transaction when a concurrent sign-in linked the same identity first: try again. */
class LostRace extends Error {}

function providerName(ctx: ServiceContext, provider: ExternalProfile['provider']): string {
  if (provider === 'google') return 'Google';
  return ctx.config.accounts.oidc?.buttonLabel.replace(/^continue with\s+/i, '') ?? 'Single sign-on';
}

/**
 * The account an external identity signs in to. A known identity signs in its user. A new one with
 * an email the provider says is verified links to the account with that email, or creates an
 * account (with the sign-up credits; the first account on the installation still becomes the
 * administrator, atomically). An unverified email never links to an existing account.
 */
export async function accountForIdentity(ctx: ServiceContext, profile: ExternalProfile): Promise<UserRow> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await ctx.db.transaction((tx) => resolveIdentity(ctx, tx, profile));
    } catch (error) {
      // Two first sign-ins of one person at once: the loser finds the winner's account next time.
      const raced = error instanceof LostRace || (error instanceof AppError && error.code === 'email_taken');
      if (!raced || attempt >= 2) throw error;
    }
  }
}

async function resolveIdentity(ctx: ServiceContext, tx: Executor, profile: ExternalProfile): Promise<UserRow> {
  const known = await repo.findIdentity(tx, profile.provider, profile.subject);
  if (known) {
    const user = await findUserById(tx, known.userId);
    if (user) return user;
  }
  if (!profile.email) {
    throw new ExternalSignInError(
      'no_user',
      'The sign-in provider did not share an email address, which an account needs.',
    );
  }
  const found = await findUserByEmailIn(tx, profile.email);
  const existing =
    found && profile.emailVerified && !found.emailVerifiedAt ? await takeOver(ctx, tx, found, profile) : found;
  if (existing && !profile.emailVerified) {
    throw new ExternalSignInError(
      'oauth_error',
      `An account with ${profile.email} already exists, and the sign-in provider has not verified that this email is yours. Sign in with your password instead.`,
    );
  }
  const user =
    existing ??
    (await createAccountIn(tx, signupPolicy(ctx), {
      email: profile.email,
      passwordHash: null,
      // The provider vouches for the address: the account starts verified.
      emailVerifiedAt: profile.emailVerified ? new Date() : null,
      firstName: profile.firstName,
      lastName: profile.lastName,
    }).catch((error: unknown) => {
      // A server taking no new accounts: said on the sign-in page, as the other refusals are.
      if (error instanceof AppError && error.code === REGISTRATION_CLOSED_CODE)
        throw new ExternalSignInError('registration_closed', error.message);
      throw error;
    }));
  const linked = await repo.insertIdentity(tx, {
    provider: profile.provider,
    subject: profile.subject,
    userId: user.id,
    email: profile.email,
  });
  if (!linked) throw new LostRace();
  return user;
}

/**
 * The owner's provider proved the email of an account whose email nobody proved: whoever made that
 * account never showed they own the address. The owner gets it cleanly: the unproven password, every
 * linked sign-in, session, access token, webhook endpoint and emailed link made before are removed
 * (`hand_over` in ways-in.service.ts), and the email is marked verified (granting sign-up credits
 * that waited for it).
 */
async function takeOver(ctx: ServiceContext, tx: Executor, found: UserRow, profile: ExternalProfile): Promise<UserRow> {
  const user = (await lockUser(tx, found.id)) ?? found;
  await endWaysIn(tx, user.id, 'hand_over', { proves: true, via: providerName(ctx, profile.provider) });
  await markEmailVerified(tx, signupPolicy(ctx), user);
  return (await findUserById(tx, user.id)) ?? user;
}

/** Links an identity to the signed-in user (from the account page); refused when it belongs to another account. */
export async function linkIdentity(ctx: ServiceContext, userId: string, profile: ExternalProfile): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const known = await repo.findIdentity(tx, profile.provider, profile.subject);
    if (known?.userId === userId) return;
    if (known) {
      throw new ExternalSignInError(
        'oauth_error',
        `This ${providerName(ctx, profile.provider)} sign-in is already linked to another account.`,
      );
    }
    if (
      !(await repo.insertIdentity(tx, {
        provider: profile.provider,
        subject: profile.subject,
        userId,
        email: profile.email,
      }))
    ) {
      throw new ExternalSignInError('oauth_error', 'This sign-in was just linked elsewhere. Please try again.');
    }
  });
}

/** The user's ways to sign in, for the account page. */
export async function listSignIns(ctx: ServiceContext, user: UserRow): Promise<AccountSignIns> {
  const identities = await repo.listIdentities(ctx.db, user.id);
  return {
    hasPassword: user.passwordHash !== null,
    identities: identities.map((row) => ({
      id: row.id,
      provider: row.provider,
      providerName: providerName(ctx, row.provider),
      email: row.email,
      createdAt: row.createdAt.toISOString(),
    })),
  };
}

export const LAST_SIGN_IN_MESSAGE =
  'This is the only way left to sign in to your account, so it cannot be removed. Set a password or link another sign-in first.';

/** Removes a linked identity, unless it is the last way to sign in (a password counts as one). */
export async function removeIdentity(ctx: ServiceContext, userId: string, identityId: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    // The user's row lock serialises two removals, so they cannot both pass the count.
    const user = await lockUser(tx, userId);
    if (!user) throw notFound('User not found', 'user_not_found');
    const ways = (await repo.countIdentities(tx, userId)) + (user.passwordHash ? 1 : 0);
    const owned = (await repo.listIdentities(tx, userId)).some((row) => row.id === identityId);
    if (!owned) throw notFound('This sign-in is not linked to your account.', 'identity_not_found');
    if (ways <= 1) throw conflict(LAST_SIGN_IN_MESSAGE, 'last_sign_in');
    await repo.deleteIdentity(tx, userId, identityId);
  });
}
