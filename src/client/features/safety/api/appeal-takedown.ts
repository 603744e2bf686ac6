import { useMutation, useQueryClient } from '@tanstack/react-query';

import { messageSchema } from '../../../../shared/auth';
import { apiRequest } from '../../../lib/api-client';
import { ownTakedownsQueryKey } from './query-keys';

/** POST /api/safety/takedowns/:reportId/appeal: answers the server's sentence; 409 when already appealed. */
export async function appealTakedown(args: { reportId: string; message: string }): Promise<string> {
  const response = await apiRequest('POST', `/api/safety/takedowns/${encodeURIComponent(args.reportId)}/appeal`, {
    message: args.message,
  });
  return messageSchema.parse(await response.json()).message;
}

/** An owner appeals once: either way the list is refreshed, so the Appeal button goes. */
export function useAppealTakedown() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: appealTakedown,
    onSettled: () => client.invalidateQueries({ queryKey: ownTakedownsQueryKey }),
  });
}
