import { useMutation, useQueryClient } from '@tanstack/react-query';

import type { AdminUserUpdate } from '../../../../shared/admin';
import { type MessageBody, messageSchema } from '../../../../shared/auth';
import { apiRequest } from '../../../lib/api-client';
import { adminStatsQueryKey, adminUsersQueryKey } from './query-keys';

export interface UpdateAdminUserInput {
  id: string;
  update: AdminUserUpdate;
}

/** PATCH /api/admin/users/{id} with the admin edit payload. */
export async function updateAdminUser({ id, update }: UpdateAdminUserInput): Promise<MessageBody> {
  const response = await apiRequest('PATCH', `/api/admin/users/${encodeURIComponent(id)}`, update);
  return messageSchema.parse(await response.json());
}

/** Saves a user, then refreshes the table and the tiles (after a refusal too: a stale edit shows the new figures). */
export function useUpdateAdminUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateAdminUser,
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: adminUsersQueryKey }),
        client.invalidateQueries({ queryKey: adminStatsQueryKey }),
      ]),
  });
}
