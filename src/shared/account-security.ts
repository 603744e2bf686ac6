import { z } from 'zod';

/**
 * The events that end ways into an account that the person acting did not just create (decision 018):
 * a verified external sign-in taking over an account whose email nobody proved, a password reset, a
 * password change, proving the email by its link, and an email change.
 */
export const SECURITY_EVENT_KINDS = [
  'hand_over',
  'password_reset',
  'password_change',
  'email_proven',
  'email_change',
] as const;
export type SecurityEventKind = (typeof SECURITY_EVENT_KINDS)[number];

/** What one event removed: counts of each kind of key, and whether the password went. */
export const removedWaysInSchema = z.object({
  sessions: z.number().int().nonnegative(),
  accessTokens: z.number().int().nonnegative(),
  webhookEndpoints: z.number().int().nonnegative(),
  signIns: z.number().int().nonnegative(),
  /** Unused password-reset and email links that stopped working. */
  links: z.number().int().nonnegative(),
  password: z.boolean(),
});
export type RemovedWaysIn = z.infer<typeof removedWaysInSchema>;

export const NOTHING_REMOVED: RemovedWaysIn = {
  sessions: 0,
  accessTokens: 0,
  webhookEndpoints: 0,
  signIns: 0,
  links: 0,
  password: false,
};

/** GET /api/account/security-events: the account's latest events, newest first. */
export const securityEventSchema = z.object({
  id: z.string(),
  kind: z.enum(SECURITY_EVENT_KINDS),
  /** The sign-in that took the account over ('Google'), for a hand-over; null otherwise. */
  via: z.string().nullable(),
  removed: removedWaysInSchema,
  createdAt: z.string(),
});
export type SecurityEvent = z.infer<typeof securityEventSchema>;
export const securityEventListSchema = z.object({ events: z.array(securityEventSchema) });
export type SecurityEventList = z.infer<typeof securityEventListSchema>;

/** How many events the account page lists. */
export const SECURITY_EVENTS_SHOWN = 20;

/** What happened, as the account page says it. */
export function securityEventTitle(event: Pick<SecurityEvent, 'kind' | 'via'>): string {
  switch (event.kind) {
    case 'hand_over':
      return `Signed in with ${event.via ?? 'a verified provider'}, which proved this email: the account was handed to its owner`;
    case 'password_reset':
      return 'Password reset by a link mailed to this email';
    case 'password_change':
      return 'Password changed';
    case 'email_proven':
      return 'Email verified';
    case 'email_change':
      return 'Email changed';
  }
}

const counted = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What the event removed, in one sentence ("Ended 2 sessions, revoked 1 access token."). */
export function securityEventRemovals(removed: RemovedWaysIn): string {
  const parts: string[] = [];
  if (removed.sessions > 0) parts.push(`ended ${counted(removed.sessions, 'session', 'sessions')}`);
  if (removed.accessTokens > 0) parts.push(`revoked ${counted(removed.accessTokens, 'access token', 'access tokens')}`);
  if (removed.webhookEndpoints > 0)
    parts.push(`removed ${counted(removed.webhookEndpoints, 'webhook endpoint', 'webhook endpoints')}`);
  if (removed.signIns > 0) parts.push(`unlinked ${counted(removed.signIns, 'sign-in', 'sign-ins')}`);
  if (removed.password) parts.push('removed the password');
  if (removed.links > 0) parts.push(`cancelled ${counted(removed.links, 'emailed link', 'emailed links')}`);
  if (parts.length === 0) return 'Nothing else was removed.';
  const sentence = parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)!}`;
  return `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.`;
}
