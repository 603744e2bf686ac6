// The payments feature's query keys. What a purchase changes (the user, credits and generation
// status) is keyed in lib/query-keys.ts.

/** GET /api/payments/config */
export const paymentsConfigQueryKey = ['/api/payments/config'] as const;

/** GET /api/payments/subscription: the subscription's next charge (a purchase or a cancellation changes it). */
export const subscriptionDetailsQueryKey = ['/api/payments/subscription'] as const;

/** GET /api/payments/receipts */
export const receiptsQueryKey = ['/api/payments/receipts'] as const;
