// The storyboards feature's query keys (issue 47). Each is the URL it is fetched from.

/** GET /api/storyboards: the user's boards, the latest edited first. */
export const storyboardsQueryKey = ['/api/storyboards'] as const;

/** GET /api/storyboards/:id: one board with its shots' takes and its films. */
export const storyboardQueryKey = (id: string) => ['/api/storyboards', id] as const;
