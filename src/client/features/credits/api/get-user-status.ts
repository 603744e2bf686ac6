import { queryOptions, useQuery } from '@tanstack/react-query';

import { type UserStatus, userStatusSchema } from '../../../../shared/auth';
import { getJsonWithEtag } from '../../../lib/api-client';
import { useLiveUpdatesActive } from '../../../lib/live-events';
import { userStatusQueryKey } from '../../../lib/query-keys';

/** GET /api/user/status: available credits, unlimited flag and plan (304 when unchanged). */
export async function getUserStatus(signal?: AbortSignal): Promise<UserStatus> {
  return userStatusSchema.parse(await getJsonWithEtag('/api/user/status', signal));
}

export function userStatusQueryOptions() {
  return queryOptions({ queryKey: userStatusQueryKey, queryFn: () => getUserStatus() });
}

interface UseUserStatusOptions {
  enabled: boolean;
  /**
   * Polling interval in ms (the dashboard's 30 s, spec section 7), used only while live updates
   * are down (decision 011); never in a hidden tab.
   */
  refetchInterval?: number;
}

export function useUserStatus({ enabled, refetchInterval }: UseUserStatusOptions) {
  const live = useLiveUpdatesActive();
  return useQuery({
    ...userStatusQueryOptions(),
    enabled,
    refetchInterval: !live && refetchInterval ? refetchInterval : false,
    refetchIntervalInBackground: false,
  });
}

/** '∞ Unlimited' or '{n} Credits', as the badge reads. */
export function formatCredits(status: UserStatus): string {
  return status.isUnlimited ? '∞ Unlimited' : `${status.availableCredits} Credits`;
}
