import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';

import { messageSchema } from '../../../../shared/auth';
import {
  type CreatedWebhook,
  type CreateWebhook,
  createdWebhookSchema,
  type WebhookDelivery,
  webhookDeliverySchema,
  type WebhookEndpoint,
  webhookEndpointSchema,
} from '../../../../shared/webhooks';
import { apiRequest } from '../../../lib/api-client';

export const webhooksQueryKey = ['/api/account/webhooks'] as const;
const deliveriesQueryKey = (id: string) => ['/api/account/webhooks', id, 'deliveries'] as const;
const path = (id: string) => `/api/account/webhooks/${encodeURIComponent(id)}`;

/** GET /api/account/webhooks: the user's endpoints (their secrets are shown only when made). */
export async function fetchWebhooks(): Promise<WebhookEndpoint[]> {
  const response = await apiRequest('GET', '/api/account/webhooks');
  return z.array(webhookEndpointSchema).parse(await response.json());
}

export function useWebhooks() {
  return useQuery({ queryKey: webhooksQueryKey, queryFn: fetchWebhooks });
}

/** POST /api/account/webhooks: answers the endpoint with its signing secret, once. */
export async function createWebhook(body: CreateWebhook): Promise<CreatedWebhook> {
  const response = await apiRequest('POST', '/api/account/webhooks', body);
  return createdWebhookSchema.parse(await response.json());
}

export function useCreateWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createWebhook,
    onSettled: () => client.invalidateQueries({ queryKey: webhooksQueryKey }),
  });
}

/** DELETE /api/account/webhooks/{id} */
export async function deleteWebhook(id: string): Promise<string> {
  const response = await apiRequest('DELETE', path(id));
  return messageSchema.parse(await response.json()).message;
}

export function useDeleteWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteWebhook,
    onSettled: () => client.invalidateQueries({ queryKey: webhooksQueryKey }),
  });
}

/** GET /api/account/webhooks/{id}/deliveries: the latest deliveries, each with its attempts. */
export async function fetchDeliveries(id: string): Promise<WebhookDelivery[]> {
  const response = await apiRequest('GET', `${path(id)}/deliveries`);
  return z.array(webhookDeliverySchema).parse(await response.json());
}

export function useDeliveries(id: string) {
  return useQuery({ queryKey: deliveriesQueryKey(id), queryFn: () => fetchDeliveries(id) });
}

/** POST /api/account/webhooks/{id}/test: sends a test event now and answers its delivery. */
export async function sendTestWebhook(id: string): Promise<WebhookDelivery> {
  const response = await apiRequest('POST', `${path(id)}/test`);
  return webhookDeliverySchema.parse(await response.json());
}

/** POST /api/account/webhooks/{id}/deliveries/{deliveryId}/redeliver */
export async function redeliverWebhook(args: { id: string; deliveryId: string }): Promise<WebhookDelivery> {
  const response = await apiRequest(
    'POST',
    `${path(args.id)}/deliveries/${encodeURIComponent(args.deliveryId)}/redeliver`,
  );
  return webhookDeliverySchema.parse(await response.json());
}

/** Test and redeliver both send at once; the endpoint's delivery log is then refreshed. */
export function useSendWebhook(id: string) {
  const client = useQueryClient();
  const onSettled = () => client.invalidateQueries({ queryKey: deliveriesQueryKey(id) });
  return {
    test: useMutation({ mutationFn: () => sendTestWebhook(id), onSettled }),
    redeliver: useMutation({ mutationFn: (deliveryId: string) => redeliverWebhook({ id, deliveryId }), onSettled }),
  };
}
