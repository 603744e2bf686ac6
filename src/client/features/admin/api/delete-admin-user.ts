import { useMutation, useQueryClient } from '@tanstack/react-query';

import { type MessageBody, messageSchema } from '../../../../shared/auth';
import { apiRequest } from '../../../lib/api-client';
import { adminStatsQueryKey, adminUsersQueryKey } from './query-keys';

/** DELETE /api/admin/users/{id}: the user and all their data. */
export async function deleteAdminUser(id: string): Promise<MessageBody> {
  const response = await apiRequest('DELETE', `/api/admin/users/${encodeURIComponent(id)}`);
  return messageSchema.parse(await response.json());
}

/** Deletes a user, then refreshes the table and the tiles. */
export function useDeleteAdminUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteAdminUser,
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: adminUsersQueryKey }),
        client.invalidateQueries({ queryKey: adminStatsQueryKey }),
      ]),
  });
}
