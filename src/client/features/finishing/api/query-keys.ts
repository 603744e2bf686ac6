// The finishing feature's query keys (issue 48). Each is the URL it is fetched from.

/** GET /api/finishing: the tools this installation finishes videos with, their prices and limits. */
export const finishingToolsQueryKey = ['/api/finishing'] as const;
