import {
  canKeepVideos,
  DEFAULT_VIDEO_RETENTION_HOURS,
  isKeepGroup,
  type KeepGroup,
  MAX_VIDEO_RETENTION_HOURS,
  MIN_VIDEO_RETENTION_HOURS,
  retentionAsTitle,
  retentionInWords,
} from '../../shared/retention';

// The operator's VIDEO_RETENTION_HOURS and KEEP_VIDEOS_FOR, which the server writes into index.html
// (and the prerendered landing page) as it sends them (src/server/http/client-files.ts), so every
// screen says the right figure from its first paint, signed in or not, without a request.
const HOURS_META = 'reelsmith:video-retention-hours';
const KEEP_META = 'reelsmith:keep-videos-for';
/** What the build-time landing page says instead of the figure; the server fills it in. */
export const RETENTION_WORDS_PLACEHOLDER = '__VIDEO_RETENTION_WORDS__';

const metaContent = (name: string) =>
  document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content.trim() ?? '';

/** Hours a video is kept; the spec's 24 when the page does not say (the dev server, a test). */
export function getVideoRetentionHours(): number {
  if (typeof document === 'undefined') return DEFAULT_VIDEO_RETENTION_HOURS;
  const hours = Number(metaContent(HOURS_META));
  return Number.isInteger(hours) && hours >= MIN_VIDEO_RETENTION_HOURS && hours <= MAX_VIDEO_RETENTION_HOURS
    ? hours
    : DEFAULT_VIDEO_RETENTION_HOURS;
}

/** '24 hours', '1 hour', '7 days': how the screens say the retention (the spec's words at 24). */
export function retentionWords(): string {
  // The landing page rendered at build time (scripts/prerender-landing.mjs): the server fills it in.
  if (typeof document === 'undefined') return RETENTION_WORDS_PLACEHOLDER;
  return retentionInWords(getVideoRetentionHours());
}

/** '24-Hour', '1-Hour', '7-Day': the retention in a title ('Important: 24-Hour Video Storage'). */
export function retentionTitle(): string {
  return retentionAsTitle(getVideoRetentionHours());
}

/** Whether this user is offered Keep (the server checks again). */
export function mayKeepVideos(user: { isAdmin: boolean; subscriptionStatus: string } | null | undefined): boolean {
  if (!user || typeof document === 'undefined') return false;
  const groups = metaContent(KEEP_META)
    .split(',')
    .map((part) => part.trim())
    .filter((part): part is KeepGroup => isKeepGroup(part));
  return canKeepVideos(groups, user);
}
