import { isUnlimitedStatus, planNameOf, type UserStatus } from '../../../shared/auth';
import type { LiveBalance } from '../../../shared/live-events';
import { toCredits } from '../../../shared/money/credits';
import type { ServiceContext } from '../../context';
import type { UserRow } from '../../db/schema';
import { generationStatus } from './allowances.service';

// One answer to "what can this user spend": the balance. GET /api/user/balance and the live
// 'balance' event send all of it; the specification's older routes (modules/spec-client) each
// answer one part of it, made from these functions.

/** Credits, the unlimited flag and the plan: everything the session's user row already says. */
export function presentUserStatus(user: UserRow): UserStatus {
  return {
    availableCredits: toCredits(user.creditsHundredths),
    isUnlimited: isUnlimitedStatus(user.subscriptionStatus),
    plan: user.plan,
    planName: planNameOf(user.subscriptionStatus),
  };
}

/** The whole balance: the user status, and today's daily generations, extra generations and the subscription. */
export async function presentBalance(ctx: ServiceContext, user: UserRow): Promise<LiveBalance> {
  return { status: presentUserStatus(user), generationStatus: await generationStatus(ctx, user) };
}
