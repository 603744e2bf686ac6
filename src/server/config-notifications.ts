import { z } from 'zod';

/**
 * Web Push and notification settings, kept apart from config.ts like config-accounts.ts; nothing here
 * reads process.env.
 */
export const notificationsEnv = {
  /**
   * The VAPID key pair (RFC 8292) that signs this server's Web Push requests, base64url as
   * `npx web-push generate-vapid-keys` prints them. Both or neither: without them the first process
   * makes a pair and keeps it in the database, where every other process finds it.
   */
  VAPID_PUBLIC_KEY: z
    .string()
    .optional()
    .transform((v) => v?.trim() || undefined)
    .pipe(
      z
        .string()
        .regex(/^[A-Za-z0-9_-]{87}$/, 'must be the 65-byte P-256 public key in base64url (87 characters)')
        .optional(),
    ),
  VAPID_PRIVATE_KEY: z
    .string()
    .optional()
    .transform((v) => v?.trim() || undefined)
    .pipe(
      z
        .string()
        .regex(/^[A-Za-z0-9_-]{43}$/, 'must be the 32-byte P-256 private key in base64url (43 characters)')
        .optional(),
    ),
  /** Who push services may contact about this server: a mailto: or https: URL (default: modules/notifications/push-keys.ts vapidSubject). */
  VAPID_SUBJECT: z
    .string()
    .optional()
    .transform((v) => v?.trim() || undefined)
    .pipe(
      z
        .string()
        .regex(/^(mailto:\S+@\S+|https:\/\/\S+)$/, 'must be a mailto: or https: URL')
        .optional(),
    ),
  /**
   * Push services besides the browsers' own (Google, Mozilla, Apple, Microsoft) that subscriptions
   * may name, as comma-separated host:port; plain http is allowed for these (a self-hosted push
   * service on an intranet, or a test's).
   */
  PUSH_ALLOWED_HOSTS: z
    .string()
    .optional()
    .transform((v) =>
      (v ?? '')
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(/^[a-z0-9.-]+:\d{1,5}$/, 'must be host:port entries, comma-separated'))),
};

type NotificationsEnv = z.output<z.ZodObject<typeof notificationsEnv>>;

export interface NotificationsConfig {
  /** The configured VAPID pair, or undefined to use (or make) the one in DATA_DIR. */
  vapidKeys: { publicKey: string; privateKey: string } | undefined;
  vapidSubject: string | undefined;
  /** Extra push services as host:port, lower case. */
  pushAllowedHosts: string[];
}

/** The notification settings; throws with a readable message when only one VAPID key is set. */
export function readNotificationsConfig(env: NotificationsEnv): NotificationsConfig {
  const { VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: privateKey } = env;
  if ((publicKey === undefined) !== (privateKey === undefined)) {
    throw new Error('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together: set both, or neither');
  }
  return {
    vapidKeys: publicKey && privateKey ? { publicKey, privateKey } : undefined,
    vapidSubject: env.VAPID_SUBJECT,
    pushAllowedHosts: env.PUSH_ALLOWED_HOSTS,
  };
}
