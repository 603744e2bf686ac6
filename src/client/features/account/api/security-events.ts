import { useQuery } from '@tanstack/react-query';

import { type SecurityEventList, securityEventListSchema } from '../../../../shared/account-security';
import { apiRequest } from '../../../lib/api-client';

export const securityEventsQueryKey = ['/api/account/security-events'] as const;

/** GET /api/account/security-events: what ended ways into the account, newest first. */
export async function fetchSecurityEvents(): Promise<SecurityEventList> {
  const response = await apiRequest('GET', '/api/account/security-events');
  return securityEventListSchema.parse(await response.json());
}

export function useSecurityEvents() {
  return useQuery({ queryKey: securityEventsQueryKey, queryFn: fetchSecurityEvents });
}
