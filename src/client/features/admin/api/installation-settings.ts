import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import {
  type InstallationSettings,
  installationSettingsSchema,
  type ProviderId,
  type MailSettings,
  type ProviderKeys,
  type RulesSettings,
  type StripeKeys,
} from '../../../../shared/installation-settings';
import { apiRequest } from '../../../lib/api-client';
import { modelsQueryKey } from '../../../lib/query-keys';
import { adminSettingsQueryKey } from './query-keys';

/** GET /api/admin/settings: each provider, where its settings come from, and the first-run checklist. */
export async function getInstallationSettings(): Promise<InstallationSettings> {
  const response = await apiRequest('GET', '/api/admin/settings');
  return installationSettingsSchema.parse(await response.json());
}

export function useInstallationSettings() {
  return useQuery({ queryKey: adminSettingsQueryKey, queryFn: getInstallationSettings });
}

/** After a change: the page shows the answer, and the generator's model list is read again. */
function useSettingsChange<T>(send: (value: T) => Promise<Response>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (value: T) => installationSettingsSchema.parse(await (await send(value)).json()),
    onSuccess: (settings) => {
      client.setQueryData(adminSettingsQueryKey, settings);
      void client.invalidateQueries({ queryKey: modelsQueryKey });
    },
  });
}

/** PUT /api/admin/settings/providers: the server tries the key with the provider, then saves it. */
export function useSaveProviderKeys() {
  return useSettingsChange((keys: ProviderKeys) => apiRequest('PUT', '/api/admin/settings/providers', keys));
}

/** PUT /api/admin/settings/payments: the server tries Stripe's keys, then saves them. */
export function useSaveStripeKeys() {
  return useSettingsChange((keys: StripeKeys) => apiRequest('PUT', '/api/admin/settings/payments', keys));
}

/** DELETE /api/admin/settings/payments. */
export function useRemoveStripeKeys() {
  return useSettingsChange(() => apiRequest('DELETE', '/api/admin/settings/payments'));
}

/** PUT /api/admin/settings/mail: the server asks the mail server, then saves it. */
export function useSaveMailSettings() {
  return useSettingsChange((mail: MailSettings) => apiRequest('PUT', '/api/admin/settings/mail', mail));
}

/** DELETE /api/admin/settings/mail. */
export function useRemoveMailSettings() {
  return useSettingsChange(() => apiRequest('DELETE', '/api/admin/settings/mail'));
}

/** PUT /api/admin/settings/contact: who runs this server (null forgets it). */
export function useSaveOperatorContact() {
  return useSettingsChange((contact: string | null) => apiRequest('PUT', '/api/admin/settings/contact', { contact }));
}

/** DELETE /api/admin/settings/providers/{provider}. */
export function useRemoveProviderKeys() {
  return useSettingsChange((id: ProviderId) =>
    apiRequest('DELETE', `/api/admin/settings/providers/${encodeURIComponent(id)}`),
  );
}

/** PUT /api/admin/settings/rules: retention, who may keep a video, the sign-up grant, the challenge. */
export function useSaveRules() {
  return useSettingsChange((rules: RulesSettings) => apiRequest('PUT', '/api/admin/settings/rules', rules));
}
