// The generations feature's query keys. What a generation also changes elsewhere (the user's
// credits and generation status) is keyed in lib/query-keys.ts.

/** GET /api/video-generation: the user's videos (dashboard gallery, media page). */
export const generationsQueryKey = ['/api/video-generation'] as const;

/** GET /api/video-generation-jobs: every job (history page). */
export const generationJobsQueryKey = ['/api/video-generation-jobs'] as const;

/** GET /api/video-generation-jobs/recent: the latest 3 jobs (generator's Recent History). */
export const recentJobsQueryKey = ['/api/video-generation-jobs/recent'] as const;

/** GET /api/models */
export const modelsQueryKey = ['/api/models'] as const;
