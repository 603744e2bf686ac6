import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import {
  type NotificationSettings,
  notificationSettingsSchema,
  type PushSubscriptionBody,
} from '../../../../shared/notifications';
import { apiRequest } from '../../../lib/api-client';

export const notificationSettingsQueryKey = ['/api/notifications'] as const;

export async function fetchNotificationSettings(): Promise<NotificationSettings> {
  const response = await apiRequest('GET', '/api/notifications');
  return notificationSettingsSchema.parse(await response.json());
}

export function useNotificationSettings() {
  return useQuery({ queryKey: notificationSettingsQueryKey, queryFn: fetchNotificationSettings });
}

function useSettingsMutation<T>(send: (input: T) => Promise<Response>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: T) => notificationSettingsSchema.parse(await (await send(input)).json()),
    onSuccess: (settings) => client.setQueryData(notificationSettingsQueryKey, settings),
  });
}

/** PUT /api/notifications/email: e-mail me when a video is ready or failed. */
export function useEmailChoice() {
  return useSettingsMutation((enabled: boolean) => apiRequest('PUT', '/api/notifications/email', { enabled }));
}

/** POST /api/notifications/push-subscriptions: this browser's subscription. */
export function useSaveSubscription() {
  return useSettingsMutation((subscription: PushSubscriptionBody) =>
    apiRequest('POST', '/api/notifications/push-subscriptions', subscription),
  );
}

/** DELETE /api/notifications/push-subscriptions: this browser no longer receives them. */
export function useForgetSubscription() {
  return useSettingsMutation((endpoint: string) =>
    apiRequest('DELETE', '/api/notifications/push-subscriptions', { endpoint }),
  );
}
