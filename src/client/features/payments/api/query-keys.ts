// The payments feature's query keys. What a purchase changes (the user, credits and generation
// status) is keyed in lib/query-keys.ts.

/** GET /api/payments/config */
export const paymentsConfigQueryKey = ['/api/payments/config'] as const;
