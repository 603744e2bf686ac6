import { GENERATION_STATUSES, type GenerationStatus } from './generations';

/** A video created this recently is new enough for the 'Video Ready!' notice (docs/product-rules.md, Screens). */
export const RECENT_VIDEO_MS = 5 * 60 * 1000;

/** Time left before a video is deleted: 'Expired', 'Nd Nh', 'Nh Nm' or 'Nm' (docs/product-rules.md, Statuses). */
export function formatExpiry(expiresAt: string | Date | null | undefined, now: Date = new Date()): string | null {
  if (!expiresAt) return null;
  const left = new Date(expiresAt).getTime() - now.getTime();
  if (Number.isNaN(left)) return null;
  if (left <= 0) return 'Expired';
  const minutes = Math.floor(left / 60_000);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  if (days > 0) return `${days}d ${hours}h`;
  if (hours > 0) return `${hours}h ${minutes % 60}m`;
  return `${minutes}m`;
}

/**
 * A completed video past its 24 hours: its file is gone (or going), so it is shown as 'Expired',
 * never counted as completed, and offers neither play nor download.
 */
export function isExpiredVideo(video: { status: string; expiresAt?: string | null }, now: Date = new Date()): boolean {
  if (video.status !== 'completed' || !video.expiresAt) return false;
  const at = new Date(video.expiresAt).getTime();
  return !Number.isNaN(at) && at <= now.getTime();
}

/**
 * Whether a video can be played, downloaded and shared: completed, with its file, and not past its
 * 24 hours (the file is deleted then, even if the list still has its address).
 */
export function isPlayable(
  video: { status: string; outputVideoUrl: string | null; expiresAt?: string | null },
  now: Date = new Date(),
): boolean {
  return video.status === 'completed' && video.outputVideoUrl !== null && !isExpiredVideo(video, now);
}

/** When it expired: 'Expired 5m ago', 'Expired 3h ago', 'Expired Nov 21, 2026'. */
export function expiredWhen(expiresAt: string, now: Date = new Date()): string {
  const ago = Math.max(0, now.getTime() - new Date(expiresAt).getTime());
  const minutes = Math.floor(ago / 60_000);
  if (minutes < 60) return `Expired ${Math.max(1, minutes)}m ago`;
  if (minutes < 1440) return `Expired ${Math.floor(minutes / 60)}h ago`;
  return `Expired ${formatVideoDate(expiresAt)}`;
}

export function isRecentVideo(createdAt: string, now: Date = new Date()): boolean {
  return now.getTime() - new Date(createdAt).getTime() <= RECENT_VIDEO_MS;
}

/** The saved file's name: the product prefix, '-video-', the id, a dash, a timestamp, '.mp4' (docs/product-rules.md, Statuses). */
export function videoFileName(id: string, timestamp: number = Date.now()): string {
  return `reelsmith-video-${id}-${timestamp}.mp4`;
}

export type StatusTone = 'success' | 'danger' | 'warning';

/** How a status value displays: completed green, failed red, anything else yellow; unknown values read 'Unknown'. */
export function describeStatus(status: string): { label: string; tone: StatusTone } {
  const known = (GENERATION_STATUSES as readonly string[]).includes(status) ? (status as GenerationStatus) : null;
  const label = known ? known.charAt(0).toUpperCase() + known.slice(1) : 'Unknown';
  const tone: StatusTone = known === 'completed' ? 'success' : known === 'failed' ? 'danger' : 'warning';
  return { label, tone };
}

/** Jobs may lack these fields; the spec shows 1 credit and 10 seconds then. */
export const shownCredits = (credits: number | null | undefined) => credits ?? 1;
export const shownDuration = (seconds: number | null | undefined) => seconds ?? 10;

/** 'Nov 22, 2026' (the dashboard's 'MMM d, yyyy'). */
export function formatVideoDate(iso: string): string {
  const date = new Date(iso);
  const month =
    ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][date.getMonth()] ?? '';
  return `${month} ${date.getDate()}, ${date.getFullYear()}`;
}
