import type { ModelInfo } from './models';

// What this installation can really make, said before anything is spent (issue 45). A server with
// no provider keys renders with the local preview engine only: FFmpeg moving pictures, not AI video.
// The server writes the preview note into every page it sends (the landing page, painted before
// any script, and the app shell), and the generator reads the same from GET /api/models.

/** Where the build-time landing page and index.html hold the note; the server fills it in as it sends them. */
export const PREVIEW_NOTE_PLACEHOLDER = '__PREVIEW_NOTE__';

export const PREVIEW_ONLY_NOTE =
  'No AI video model is connected to this server yet, so it makes previews: moving pictures of your description or photo, made on the server, not AI video.';

/** Where the pages say who answers AI Enhance and image analysis: 'model' (Gemini or the operator's), or 'local' rules. */
export const ASSIST_PLACEHOLDER = '__ASSIST__';

/**
 * Where the pages say whether this server takes payments ('on' or 'off', on the html element's
 * data-payments): the prerendered landing page shows prices, or who to ask, from its first paint.
 */
export const PAYMENTS_PLACEHOLDER = '__PAYMENTS__';

/** True when nothing but the local preview engine can render here. */
export function isPreviewOnly(models: readonly Pick<ModelInfo, 'available' | 'isPreview'>[]): boolean {
  return !models.some((model) => model.available && !model.isPreview);
}
