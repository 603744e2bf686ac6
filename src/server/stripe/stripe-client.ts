import { createRequire } from 'node:module';
import type Stripe from 'stripe';
import type { StripeConfig } from '../config';
import { AppError, notFound } from '../lib/app-error';
import { PAYMENTS_DISABLED, paymentsDisabledMessage } from '../../shared/money/payments';

export type StripeClient = Stripe;

const requireModule = createRequire(import.meta.url);

/**
 * The Stripe SDK, loaded when it is first needed (a server with Stripe keys builds its client at
 * start): a server without keys never loads it, which is a quarter of a second of its start.
 */
function stripeSdk(): typeof Stripe {
  return requireModule('stripe') as typeof Stripe;
}

/** The Stripe SDK for this server, pointed at STRIPE_API_URL when set (Stripe's mock, a test's fake). */
export function createStripeClient(
  config: StripeConfig,
  { retries = 2, timeoutMs = 20_000 }: { retries?: number; timeoutMs?: number } = {},
): StripeClient {
  const api = config.apiUrl ? new URL(config.apiUrl) : undefined;
  const StripeSdk = stripeSdk();
  return new StripeSdk(config.secretKey, {
    maxNetworkRetries: retries,
    timeout: timeoutMs,
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

/** 503 payments_disabled, saying who to ask for credits instead (OPERATOR_CONTACT). */
export const paymentsDisabled = (operatorContact: string | undefined) =>
  new AppError(503, PAYMENTS_DISABLED, paymentsDisabledMessage(operatorContact));

/**
 * Runs a Stripe call and turns its failures into the API's errors: a missing object is a 404, a
 * refused request a 502 with Stripe's reason logged by the error handler, never a crash.
 */
export async function callStripe<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof stripeSdk().errors.StripeError) {
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
export function requireStripe(ctx: {
  stripe: StripeClient | null;
  config: { operatorContact: string | undefined };
}): StripeClient {
  if (!ctx.stripe) throw paymentsDisabled(ctx.config.operatorContact);
  return ctx.stripe;
}
