import type { UserStatus } from '../../../../shared/auth';
import { formatCreditTitle } from '../../../../shared/money/credits';
import type { LiveBalance } from '../../../../shared/live-events';
import { useBalance, type UseBalanceOptions } from './get-balance';

const statusOf = (balance: LiveBalance): UserStatus => balance.status;

/** Available credits, unlimited flag and plan: the status part of the one balance query. */
export function useUserStatus(options: UseBalanceOptions) {
  return useBalance(options, statusOf);
}

/** '∞ Unlimited' or '{n} Credits' ('1 Credit'), as the badge reads. */
export function formatCredits(status: UserStatus): string {
  return status.isUnlimited ? '∞ Unlimited' : formatCreditTitle(status.availableCredits);
}
