import { PREVIEW_NOTE_PLACEHOLDER } from '../../shared/installation';

// The preview note the server writes into every page it sends (src/server/http/client-files.ts):
// empty when a real video model is connected, else what this installation makes instead. Read from
// the page, so the landing page says it from its first paint, before any request.
const NOTE_META = 'reelsmith:preview-note';

/** The note, '' when a real model is connected (or the page does not say: the dev server, a test). */
export function previewNote(): string {
  // The landing page rendered at build time (scripts/prerender-landing.mjs): the server fills it in.
  if (typeof document === 'undefined') return PREVIEW_NOTE_PLACEHOLDER;
  const content = document.querySelector<HTMLMetaElement>(`meta[name="${NOTE_META}"]`)?.content.trim() ?? '';
  return content === PREVIEW_NOTE_PLACEHOLDER ? '' : content;
}

/**
 * True when the page says this server takes no payments (no Stripe keys): prices become who to ask.
 * The dev server and tests, whose pages say nothing, count as taking them.
 */
export function paymentsOff(): boolean {
  if (typeof document === 'undefined') return false;
  return document.documentElement.dataset.payments === 'off';
}

/**
 * True when AI Enhance and image analysis are this server's own rules and measurements, not an AI
 * model (no Gemini key and no model of the operator's). Only a page that says so counts.
 */
export function assistIsLocal(): boolean {
  if (typeof document === 'undefined') return false;
  return document.querySelector<HTMLMetaElement>('meta[name="reelsmith:assist"]')?.content === 'local';
}
