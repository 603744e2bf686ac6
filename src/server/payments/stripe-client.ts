import Stripe from 'stripe';
import type { StripeConfig } from '../config';
import { AppError, notFound } from '../lib/app-error';
import { PAYMENTS_DISABLED } from '../../shared/money/payments';

export type StripeClient = Stripe;

/** The Stripe SDK for this server, pointed at STRIPE_API_URL when set (Stripe's mock, a test's fake). */
export function createStripeClient(config: StripeConfig): StripeClient {
  const api = config.apiUrl ? new URL(config.apiUrl) : undefined;
  return new Stripe(config.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    appInfo: { name: 'Reelsmith' },
    ...(api
      ? {
          host: api.hostname,
          port: api.port || (api.protocol === 'https:' ? 443 : 80),
          protocol: api.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  });
}

export const paymentsDisabled = () => new AppError(503, PAYMENTS_DISABLED, 'Payment processing is currently disabled');

/**
 * Runs a Stripe call and turns its failures into the API's errors: a missing object is a 404, a
 * refused request a 502 with Stripe's reason logged by the error handler, never a crash.
 */
export async function callStripe<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof Stripe.errors.StripeError) {
      if (error.code === 'resource_missing' || error.statusCode === 404)
        throw notFound(`${what} was not found`, 'payment_not_found');
      throw new AppError(502, 'payment_provider_error', `The payment provider refused the request: ${error.message}`);
    }
    throw error;
  }
}

/** The id of an expandable Stripe field. */
export function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

/** The configured Stripe SDK, or 503 payments_disabled on a server without keys. */
export function requireStripe(ctx: { stripe: StripeClient | null }): StripeClient {
  if (!ctx.stripe) throw paymentsDisabled();
  return ctx.stripe;
}
