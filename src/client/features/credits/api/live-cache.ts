import type { QueryClient } from '@tanstack/react-query';

import { type LiveBalance, liveBalanceSchema } from '../../../../shared/live-events';
import { balanceQueryKey } from '../../../lib/query-keys';

/** Credits, daily or pack generations changed: the badge, the generator and the dashboard show the new figures. */
export function applyBalanceChange(queryClient: QueryClient, data: unknown): void {
  queryClient.setQueryData<LiveBalance>(balanceQueryKey, liveBalanceSchema.parse(data));
}

/** The stream was given up: the figures are read again. */
export function refreshBalance(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: balanceQueryKey });
}
