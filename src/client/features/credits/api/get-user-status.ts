import { queryOptions, useQuery } from '@tanstack/react-query';

import { type UserStatus, userStatusSchema } from '../../../../shared/auth';
import { apiRequest } from '../../../lib/api-client';
import { userStatusQueryKey } from '../../../lib/query-keys';

/** GET /api/user/status: available credits, unlimited flag and plan. */
export async function getUserStatus(): Promise<UserStatus> {
  const response = await apiRequest('GET', '/api/user/status');
  return userStatusSchema.parse(await response.json());
}

export function userStatusQueryOptions() {
  return queryOptions({ queryKey: userStatusQueryKey, queryFn: getUserStatus });
}

interface UseUserStatusOptions {
  enabled: boolean;
  /** Polling interval in ms; the dashboard polls every 30 s (spec section 7). */
  refetchInterval?: number;
}

export function useUserStatus({ enabled, refetchInterval }: UseUserStatusOptions) {
  return useQuery({ ...userStatusQueryOptions(), enabled, refetchInterval: refetchInterval ?? false });
}

/** '∞ Unlimited' or '{n} Credits', as the badge reads. */
export function formatCredits(status: UserStatus): string {
  return status.isUnlimited ? '∞ Unlimited' : `${status.availableCredits} Credits`;
}
