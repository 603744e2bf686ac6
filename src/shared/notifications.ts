import { z } from 'zod';

import { singleLine } from './text';

/** What /account shows and changes about being told when a video is ready or failed. */
export const notificationSettingsSchema = z.object({
  email: z.object({
    /** This server sends mail (SMTP_URL): the e-mail choice can be offered. */
    available: z.boolean(),
    enabled: z.boolean(),
  }),
  push: z.object({
    /** The VAPID public key (base64url) a browser subscribes with. */
    publicKey: z.string(),
    /** Browsers of this account that receive notifications. */
    subscriptions: z.number().int().min(0),
  }),
});
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;

export const emailNotificationsBodySchema = z.strictObject({ enabled: z.boolean() });

const base64url = (bytes: string) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, `must be base64url (${bytes})`)
    .max(200);

/** A browser's PushSubscription.toJSON(), as the Push API gives it. */
export const pushSubscriptionBodySchema = z.strictObject({
  endpoint: z.url({ error: 'must be the push subscription endpoint URL' }).max(2048),
  keys: z.strictObject({ p256dh: base64url('65-byte P-256 key'), auth: base64url('16-byte secret') }),
});
export type PushSubscriptionBody = z.infer<typeof pushSubscriptionBodySchema>;

export const pushEndpointBodySchema = z.strictObject({ endpoint: z.string().max(2048).check(singleLine) });

/** A tab says it is (or is no longer) in front of its user: no notification while one is. */
export const presenceBodySchema = z.strictObject({ visible: z.boolean() });

/** How often a visible tab says so; the server treats it as present for a little longer. */
export const PRESENCE_INTERVAL_MS = 60_000;

/** What a push message carries; the service worker shows it. */
export interface PushMessage {
  title: string;
  body: string;
  /** Where a click on the notification opens. */
  url: string;
  /** One notification per video: a later message about it replaces an earlier one. */
  tag: string;
}
