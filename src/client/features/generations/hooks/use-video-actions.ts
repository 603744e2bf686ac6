import { formatExpiry, videoFileName } from '../../../../shared/video-display';
import { toast } from '../../../components/ui/use-toast';

/** Fetches the video as a blob and saves it as reelsmith-video-{id}-{timestamp}.mp4 (docs/product-rules.md, Statuses). */
export async function downloadVideo(id: string, url: string): Promise<void> {
  const response = await fetch(url, { credentials: 'include' });
  if (!response.ok) throw new Error(`Download failed: ${response.status}`);
  const blob = await response.blob();
  const objectUrl = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = objectUrl;
  link.download = videoFileName(id);
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(objectUrl), 10_000);
}

/**
 * Download with the page's success title ('Download Started' on the dashboard, 'Download Complete'
 * on the media page) and the spec's failure toast.
 */
export function useVideoDownload(successTitle: 'Download Started' | 'Download Complete') {
  return async (video: { id: string; outputVideoUrl: string | null }) => {
    if (!video.outputVideoUrl) return;
    try {
      if (successTitle === 'Download Started')
        toast({ title: 'Download Started', description: 'Your video is being saved.' });
      await downloadVideo(video.id, video.outputVideoUrl);
      if (successTitle === 'Download Complete')
        toast({ title: 'Download Complete', description: 'Your video was saved.' });
    } catch {
      toast({
        title: 'Download Failed',
        description: 'Unable to download video. Please try again.',
        variant: 'destructive',
      });
    }
  };
}

export function canShareNatively(): boolean {
  return typeof navigator !== 'undefined' && typeof navigator.share === 'function';
}

type SharedVideo = {
  prompt: string;
  outputVideoUrl: string | null;
  watchPath: string | null;
  expiresAt?: string | null;
};

/** When a shared link stops working (the video's own deletion), said where it is copied; '' for a kept video. */
export function linkExpiryWords(expiresAt: string | null | undefined, now: Date = new Date()): string {
  const left = formatExpiry(expiresAt, now);
  if (!left || left === 'Expired' || !expiresAt) return '';
  const at = new Date(expiresAt).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  return `The link works until ${at} (${left} from now), when the video is deleted.`;
}

/**
 * The address to share: the video's public watch page (the video with a Report link) while it has
 * one, else its file.
 */
export function shareUrl(video: SharedVideo): string | null {
  if (video.watchPath) return new URL(video.watchPath, window.location.origin).href;
  return video.outputVideoUrl ? new URL(video.outputVideoUrl, window.location.origin).href : null;
}

/** The report form for this video, naming it by its watch page's full address, or else by its id. */
export function reportHref(video: { id: string; watchPath: string | null }): string {
  const named = video.watchPath ? new URL(video.watchPath, window.location.origin).href : video.id;
  return `/report?video=${encodeURIComponent(named)}`;
}

/** Native share where the browser has it; otherwise the absolute URL is copied to the clipboard. */
export async function shareVideo(video: SharedVideo): Promise<void> {
  if (!video.outputVideoUrl) return;
  const url = shareUrl(video);
  if (!url) return;
  try {
    if (canShareNatively()) {
      await navigator.share({ title: 'My Reelsmith video', text: video.prompt, url });
      return;
    }
    await navigator.clipboard.writeText(url);
    // The spec's words exactly; when the link stops working is said on the Share button itself.
    toast({ title: 'Link Copied', description: 'Video URL copied to clipboard.' });
  } catch (error) {
    // Closing the share sheet is not a failure.
    if (error instanceof DOMException && error.name === 'AbortError') return;
    toast({ title: 'Share Failed', description: 'Unable to share video. Please try again.', variant: 'destructive' });
  }
}
