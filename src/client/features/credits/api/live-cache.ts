import type { QueryClient } from '@tanstack/react-query';

import type { UserStatus } from '../../../../shared/auth';
import { liveBalanceSchema } from '../../../../shared/live-events';
import type { CreditBalance } from '../../../../shared/money/credits';
import type { GenerationStatus } from '../../../../shared/money/plans';
import { creditBalanceQueryKey, generationStatusQueryKey, userStatusQueryKey } from '../../../lib/query-keys';

/** Credits, daily or pack generations changed: the badge, the generator and the dashboard show the new figures. */
export function applyBalanceChange(queryClient: QueryClient, data: unknown): void {
  const balance = liveBalanceSchema.parse(data);
  queryClient.setQueryData<UserStatus>(userStatusQueryKey, balance.status);
  queryClient.setQueryData<GenerationStatus>(generationStatusQueryKey, balance.generationStatus);
  queryClient.setQueryData<CreditBalance>(creditBalanceQueryKey, { credits: balance.status.availableCredits });
}

/** The stream was given up: the figures are read again. */
export function refreshBalance(queryClient: QueryClient): void {
  for (const queryKey of [userStatusQueryKey, generationStatusQueryKey, creditBalanceQueryKey])
    void queryClient.invalidateQueries({ queryKey });
}
