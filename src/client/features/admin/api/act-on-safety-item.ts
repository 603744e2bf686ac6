import { useMutation, useQueryClient } from '@tanstack/react-query';

import { type OwnerAction, type SafetyAction, safetyActionResultSchema } from '../../../../shared/safety';
import { apiRequest } from '../../../lib/api-client';
import { adminJobsQueryKey, adminSafetyQueryKey } from './query-keys';

/** A report's decisions, and an appeal's: 'grant' takes the takedown's strike back, 'dismiss' lets it stand. */
export type ReportDecision = SafetyAction | 'grant';

/**
 * What the safety queue can do: decide a report or appeal (with a note for the reporter and owner),
 * restore (approve) or take down (reject) a job screening held, or act on a video's owner.
 */
export type SafetyActionTarget =
  | { on: 'report'; id: string; action: ReportDecision; note: string }
  | { on: 'flag'; id: string; action: 'approve' | 'reject' }
  | { on: 'owner'; id: string; action: OwnerAction };

/** The route each action posts to; a held job is decided by the jobs console's own routes. */
export function safetyActionUrl(target: SafetyActionTarget): string {
  const id = encodeURIComponent(target.id);
  switch (target.on) {
    case 'report':
      return `/api/admin/safety/reports/${id}/${target.action}`;
    case 'flag':
      return `/api/admin/jobs/${id}/${target.action}`;
    case 'owner':
      return `/api/admin/safety/users/${id}/${target.action}`;
  }
}

/** POSTs the action; every answer carries the server's sentence (a held job's also carries the job). */
export async function actOnSafetyItem(target: SafetyActionTarget): Promise<{ message: string }> {
  const body = target.on === 'report' ? { note: target.note } : target.on === 'owner' ? {} : undefined;
  const response = await apiRequest('POST', safetyActionUrl(target), body);
  return safetyActionResultSchema.parse(await response.json());
}

/** Runs a safety action, then refreshes the queue (and the jobs console, which lists held jobs too). */
export function useSafetyAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: actOnSafetyItem,
    onSettled: async () => {
      await Promise.all([
        client.invalidateQueries({ queryKey: adminSafetyQueryKey }),
        client.invalidateQueries({ queryKey: adminJobsQueryKey }),
      ]);
    },
  });
}
