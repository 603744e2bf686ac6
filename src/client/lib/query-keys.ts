// Query keys that more than one feature reads or refreshes. Each key is the URL it is fetched from
// (see getQueryFn). A feature's own keys live in its api/query-keys.ts; the ones here are shared
// because a feature may invalidate what another feature shows, and features never import each other.

/** GET /api/auth/user: the signed-in user (lib/auth.ts); set by login and register, refreshed after a purchase. */
export const authQueryKey = ['/api/auth/user'] as const;

/** GET /api/user/status: available credits, unlimited flag and plan (features/credits). */
export const userStatusQueryKey = ['/api/user/status'] as const;

/** GET /api/user/generation-status: daily and extra generations and the subscription (features/credits). */
export const generationStatusQueryKey = ['/api/user/generation-status'] as const;

/** GET /api/credits/balance: the credit balance (features/credits). */
export const creditBalanceQueryKey = ['/api/credits/balance'] as const;
