// Query keys that more than one feature reads or refreshes. Each key is the URL it is fetched from
// (see getQueryFn). A feature's own keys live in its api/query-keys.ts; the ones here are shared
// because a feature may invalidate what another feature shows, and features never import each other.

/** GET /api/auth/user: the signed-in user (lib/auth.ts); set by login and register, refreshed after a purchase. */
export const authQueryKey = ['/api/auth/user'] as const;

/**
 * GET /api/user/balance: credits, unlimited flag, plan, subscription, daily and extra generations
 * (features/credits; the live 'balance' event sets it too). The older /api/user/status,
 * /api/user/generation-status and /api/credits/balance answer parts of it; the client reads none of them.
 */
export const balanceQueryKey = ['/api/user/balance'] as const;

/** GET /api/models: the catalogue (the generator); the settings page refreshes it when a provider is connected. */
export const modelsQueryKey = ['/api/models'] as const;
