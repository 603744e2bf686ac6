import { useQuery, useQueryClient } from '@tanstack/react-query';

import { adminUsersQueryOptions, DEFAULT_ADMIN_USERS_PARAMS } from '../api/get-admin-users';
import { adminAccessQueryKey } from '../api/query-keys';

export type AdminAccess = 'checking' | 'allowed' | 'denied';

/**
 * The server decides who is an administrator (docs/product-rules.md, Administration): the users call is probed once, and
 * a 403 or any other failure means denied. The probe loads the table's first page (default sort)
 * into the cache, so the table then shows it without a second request.
 */
export function useAdminAccess(): AdminAccess {
  const client = useQueryClient();
  const probe = useQuery({
    queryKey: adminAccessQueryKey,
    queryFn: async () => {
      await client.fetchInfiniteQuery(adminUsersQueryOptions(DEFAULT_ADMIN_USERS_PARAMS));
      return true;
    },
  });
  if (probe.isPending) return 'checking';
  return probe.isSuccess ? 'allowed' : 'denied';
}
