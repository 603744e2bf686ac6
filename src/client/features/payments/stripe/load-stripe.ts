import type { Stripe } from '@stripe/stripe-js';
// The pure entry injects https://js.stripe.com only when loadStripe is called, not on import.
import { loadStripe } from '@stripe/stripe-js/pure';

export type StripeLoader = (publishableKey: string) => Promise<Stripe | null>;

let loader: StripeLoader = (publishableKey) => loadStripe(publishableKey);
const loaded = new Map<string, Promise<Stripe>>();

/** Stripe.js for this key, loaded once per key; a failed load is forgotten so a retry loads again. */
export function getStripe(publishableKey: string): Promise<Stripe> {
  const cached = loaded.get(publishableKey);
  if (cached) return cached;
  const stripe = loader(publishableKey).then((instance) => {
    if (!instance) throw new Error('Stripe.js is not available in this environment');
    return instance;
  });
  loaded.set(publishableKey, stripe);
  stripe.catch(() => loaded.delete(publishableKey));
  return stripe;
}

/** Tests replace Stripe.js with a small fake; `undefined` puts the real loader back. */
export function setStripeLoader(next: StripeLoader | undefined): void {
  loader = next ?? ((publishableKey) => loadStripe(publishableKey));
  loaded.clear();
}
