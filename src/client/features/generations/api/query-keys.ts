// The generations feature's query keys. What a generation also changes elsewhere (the user's
// balance) is keyed in lib/query-keys.ts.

/**
 * GET /api/video-generation: the user's videos, the one list every page reads (the dashboard
 * gallery, the media page, the history page and the generator's Recent History, through `select`).
 */
export const generationsQueryKey = ['/api/video-generation'] as const;

export { modelsQueryKey } from '../../../lib/query-keys';
