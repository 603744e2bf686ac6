import { useMutation, useQueryClient } from '@tanstack/react-query';

import { type AdminJobAction, type AdminJobActionName, adminJobActionSchema } from '../../../../shared/admin-jobs';
import { apiRequest } from '../../../lib/api-client';
import { adminJobsQueryKey } from './query-keys';

/** POST /api/admin/jobs/{id}/{cancel|rerun|refund}. */
export async function actOnAdminJob({
  id,
  action,
}: {
  id: string;
  action: AdminJobActionName;
}): Promise<AdminJobAction> {
  const response = await apiRequest('POST', `/api/admin/jobs/${encodeURIComponent(id)}/${action}`);
  return adminJobActionSchema.parse(await response.json());
}

/** Runs an action on a job, then refreshes the console. */
export function useAdminJobAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: actOnAdminJob,
    onSettled: () => client.invalidateQueries({ queryKey: adminJobsQueryKey }),
  });
}
