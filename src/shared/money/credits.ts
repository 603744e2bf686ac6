import { z } from 'zod';

export { CREDIT_UNIT, formatCreditCount, formatCreditTitle, toCredits, toHundredths } from './price-list';

/** GET /api/credits/balance */
export const creditBalanceSchema = z.object({ credits: z.number() });
export type CreditBalance = z.infer<typeof creditBalanceSchema>;
