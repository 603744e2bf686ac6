import { z } from 'zod';

/**
 * The outbound webhooks part of the environment, kept apart from config.ts like config-accounts.ts.
 * Nothing here reads process.env.
 */
export const webhooksEnv = {
  /**
   * Intranet receivers an operator trusts: comma-separated `host:port` (a name or an address; IPv6 in
   * brackets). Only these may be private addresses, and they may use http. Nothing else private passes.
   */
  WEBHOOK_ALLOWED_PRIVATE_HOSTS: z
    .string()
    .default('')
    .transform((value, ctx) => {
      const entries = value
        .split(',')
        .map((e) => e.trim().toLowerCase())
        .filter(Boolean);
      const wrong = entries.filter((e) => normalizeHostPort(e) === null);
      if (wrong.length > 0)
        ctx.addIssue({
          code: 'custom',
          message: `each entry must be host:port (e.g. hooks.intranet:8443 or [fd00::5]:80): ${wrong.join(', ')}`,
        });
      return entries.map((e) => normalizeHostPort(e) ?? e);
    }),
};

export interface WebhooksConfig {
  /** `host:port` pairs (lowercase, no trailing dot) that may be private and may use http. */
  allowedPrivateHosts: ReadonlySet<string>;
  /** Production accepts only https endpoints (the allowed private hosts excepted). */
  requireHttps: boolean;
}

/** "Host:port" in the form the delivery compares with (lowercase, no trailing dot), or null when it is not one. */
export function normalizeHostPort(entry: string): string | null {
  const match = /^(\[[0-9a-f:.]+\]|[a-z0-9._-]+):(\d{1,5})$/i.exec(entry.trim());
  if (!match?.[1] || !match[2]) return null;
  const port = Number(match[2]);
  if (port < 1 || port > 65535) return null;
  try {
    // The URL parser writes the host as the delivery will see it (IPv4 forms, IPv6 compression).
    const host = new URL(`http://${match[1]}/`).hostname.replace(/\.$/, '');
    return `${host}:${port}`;
  } catch {
    return null;
  }
}

export function readWebhooksConfig(env: { WEBHOOK_ALLOWED_PRIVATE_HOSTS: string[] }, nodeEnv: string): WebhooksConfig {
  return { allowedPrivateHosts: new Set(env.WEBHOOK_ALLOWED_PRIVATE_HOSTS), requireHttps: nodeEnv === 'production' };
}
