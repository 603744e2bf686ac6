import { formatVideoDate } from '../../../shared/video-display';
import { FILM_MODEL_ID } from '../../../shared/films';

/** 'Mar 18, 2026 at 12:00 PM' in the browser's time zone. */
export function formatCreatedTime(iso: string): string {
  const time = new Date(iso).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' });
  return `${formatVideoDate(iso)} at ${time}`;
}

const MODEL_LABELS: Record<string, string> = {
  veo3: 'Veo 3',
  'kling-v2v': 'Kling-V2V',
  local: 'Local preview',
  // A film's record (POST /api/films): its shots joined by this server, no model of the catalogue.
  [FILM_MODEL_ID]: 'Film of your videos',
  // Finishing (issue 48): a video finished by one of this server's tools, named by the tool's id.
  'local-upscale': 'Upscaled on this server',
  'local-mix': 'Sound added on this server',
};

/** The advertised model name (the catalogue's when given); an id this client does not know shows as it is. */
export function formatModel(model: string, catalogue?: readonly { id: string; name: string }[]): string {
  return catalogue?.find((m) => m.id === model)?.name ?? MODEL_LABELS[model] ?? model;
}

/** Pending and processing videos are the Processing tab (docs/product-rules.md, Screens). */
export function isUnfinished(status: string): boolean {
  return status === 'pending' || status === 'processing';
}
