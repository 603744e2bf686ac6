import { PAYMENTS_DISABLED } from '../../../shared/money/payments';
import { ApiError } from '../../lib/api-client';

/** The 503 every payment call answers on a server without Stripe keys. */
export function isPaymentsDisabledError(error: unknown): boolean {
  return error instanceof ApiError && error.code === PAYMENTS_DISABLED;
}

/** Wording (docs/product-rules.md), checkout creation: the sentence for a 401, else 'HTTP {status}: Payment initialization failed'. */
export function paymentStartErrorMessage(error: unknown): string {
  if (!(error instanceof ApiError)) return 'Payment initialization failed';
  if (error.status === 401) return 'You must be logged in to purchase credits. Please log in and try again.';
  return `HTTP ${error.status}: Payment initialization failed`;
}

/** Wording (docs/product-rules.md), confirmation: 'Payment confirmation failed: {status}'. */
export function confirmationErrorMessage(error: unknown): string {
  return `Payment confirmation failed: ${error instanceof ApiError ? error.status : 'network error'}`;
}

/** Wording (docs/product-rules.md): a 401 on a start call whose message (or code) says Unauthorized means the session is gone. */
export function isUnauthorizedError(error: unknown): boolean {
  if (!(error instanceof ApiError) || error.status !== 401) return false;
  return [error.message, error.code ?? ''].some((text) => text.toLowerCase().includes('unauthorized'));
}
