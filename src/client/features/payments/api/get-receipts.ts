import { useQuery } from '@tanstack/react-query';

import { type Receipt, receiptListSchema } from '../../../../shared/money/billing-account';
import { apiRequest } from '../../../lib/api-client';
import { receiptsQueryKey } from './query-keys';

/** GET /api/payments/receipts: the user's payments, newest first. */
export async function getReceipts(): Promise<Receipt[]> {
  const response = await apiRequest('GET', receiptsQueryKey[0]);
  return receiptListSchema.parse(await response.json()).receipts;
}

export function useReceipts(enabled = true) {
  return useQuery({ queryKey: receiptsQueryKey, queryFn: getReceipts, enabled });
}
