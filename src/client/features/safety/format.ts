import { formatVideoDate } from '../../../shared/video-display';

/** 'Mar 18, 2026 at 12:00 PM' in the browser's time zone. */
export function formatWhen(iso: string): string {
  const time = new Date(iso).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' });
  return `${formatVideoDate(iso)} at ${time}`;
}
