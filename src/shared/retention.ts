/**
 * How long generated videos (and the uploads that make them) are kept before their files are
 * deleted: the operator's VIDEO_RETENTION_HOURS, the spec's 24 by default (docs/product-rules.md, Retention).
 */
export const DEFAULT_VIDEO_RETENTION_HOURS = 24;
export const MIN_VIDEO_RETENTION_HOURS = 1;
/** A year: past it, keeping a video is what "keep" is for. */
export const MAX_VIDEO_RETENTION_HOURS = 8760;

export const HOUR_MS = 3_600_000;

/** When something created (or completed) at `from` expires, `hours` later. */
export function expiryFrom(from: Date, hours: number): Date {
  return new Date(from.getTime() + hours * HOUR_MS);
}

/**
 * The retention as the screens say it: the spec's '24 hours' at the default, '1 hour', '36 hours',
 * and whole days beyond a day ('7 days').
 */
export function retentionInWords(hours: number): string {
  if (hours > 24 && hours % 24 === 0) return `${hours / 24} days`;
  return hours === 1 ? '1 hour' : `${hours} hours`;
}

/** The retention as a title's adjective: the spec's '24-Hour' ('Important: 24-Hour Video Storage'), '1-Hour', '7-Day'. */
export function retentionAsTitle(hours: number): string {
  if (hours > 24 && hours % 24 === 0) return `${hours / 24}-Day`;
  return `${hours}-Hour`;
}

/**
 * Who may mark a video kept (KEEP_VIDEOS_FOR): everyone, administrators, subscribers (an active
 * subscription or a trial), or the subscription statuses by name. No group: nobody (the spec's product).
 */
export const KEEP_GROUPS = ['everyone', 'admins', 'subscribers', 'active', 'trial', 'premium_unlimited'] as const;
export type KeepGroup = (typeof KEEP_GROUPS)[number];

// No zod here: the landing page says the retention, and its bundle stays small.
export const isKeepGroup = (value: string): value is KeepGroup => (KEEP_GROUPS as readonly string[]).includes(value);

/** Whether a user may keep videos past the retention; the server decides, the client only offers the switch. */
export function canKeepVideos(
  groups: readonly KeepGroup[],
  user: { isAdmin: boolean; subscriptionStatus: string },
): boolean {
  return groups.some((group) => {
    switch (group) {
      case 'everyone':
        return true;
      case 'admins':
        return user.isAdmin;
      case 'subscribers':
        return user.subscriptionStatus === 'active' || user.subscriptionStatus === 'trial';
      default:
        return user.subscriptionStatus === group;
    }
  });
}
