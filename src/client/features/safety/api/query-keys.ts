// The safety feature's query keys.

/** GET /api/safety/takedowns: the signed-in owner's videos that were taken down. */
export const ownTakedownsQueryKey = ['/api/safety/takedowns'] as const;

/** GET /api/watch/:token: a shared video's watch page. */
export const watchedVideoQueryKey = (token: string) => ['/api/watch', token] as const;
