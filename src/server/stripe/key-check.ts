import type { StripeKeys } from '../../shared/installation-settings';
import { createStripeClient } from './stripe-client';

/**
 * The harmless call Stripe keys must pass before they are saved (issue 45): retrieve the account's
 * balance (GET /v1/balance, https://docs.stripe.com/api/balance/balance_retrieve), which reads and
 * changes nothing. A key Stripe does not know is refused (401, "Invalid API Key provided"); a
 * restricted key without that read is still a key Stripe knows (403), so it passes here and the
 * calls it cannot make say so when they are made.
 */
export type StripeKeyCheck = { ok: true } | { ok: false; refused: boolean; reason: string };

export async function checkStripeKeys(keys: StripeKeys, apiUrl: string | undefined): Promise<StripeKeyCheck> {
  const client = createStripeClient(
    { ...keys, webhookSecret: keys.webhookSecret, apiUrl },
    { retries: 0, timeoutMs: 10_000 },
  );
  try {
    await client.balance.retrieve();
    return { ok: true };
  } catch (error) {
    const failure = error as { type?: string; message?: string; statusCode?: number };
    if (failure.type === 'StripePermissionError') return { ok: true };
    if (failure.type === 'StripeAuthenticationError')
      return { ok: false, refused: true, reason: failure.message ?? 'the key is not valid' };
    if (failure.type === 'StripeConnectionError')
      return { ok: false, refused: false, reason: failure.message ?? 'the connection failed' };
    return {
      ok: false,
      refused: failure.statusCode !== undefined && failure.statusCode < 500,
      reason: failure.message ?? 'Stripe did not answer as expected',
    };
  }
}
