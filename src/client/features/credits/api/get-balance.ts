import { queryOptions, useQuery } from '@tanstack/react-query';

import { type LiveBalance, liveBalanceSchema } from '../../../../shared/live-events';
import { getJsonWithEtag } from '../../../lib/api-client';
import { useLiveUpdatesActive } from '../../../lib/live-events';
import { balanceQueryKey } from '../../../lib/query-keys';

/**
 * GET /api/user/balance: credits, unlimited flag, plan, subscription, daily and extra generations in
 * one answer, the same as the live 'balance' event (304 when unchanged).
 */
export async function getBalance(signal?: AbortSignal): Promise<LiveBalance> {
  return liveBalanceSchema.parse(await getJsonWithEtag(balanceQueryKey[0], signal));
}

export function balanceQueryOptions() {
  return queryOptions({ queryKey: balanceQueryKey, queryFn: () => getBalance() });
}

export interface UseBalanceOptions {
  enabled: boolean;
  /**
   * Polling interval in ms (the dashboard's 30 s), used only while live updates are down
   * (decision 011); never in a hidden tab.
   */
  refetchInterval?: number;
}

/**
 * The one balance query: every part of the app that shows credits or generations left reads its
 * part of it with `select`, so the page makes one request and the live event feeds them all.
 */
export function useBalance<T>({ enabled, refetchInterval }: UseBalanceOptions, select: (balance: LiveBalance) => T) {
  const live = useLiveUpdatesActive();
  return useQuery({
    ...balanceQueryOptions(),
    select,
    enabled,
    refetchInterval: !live && refetchInterval ? refetchInterval : false,
    refetchIntervalInBackground: false,
  });
}
