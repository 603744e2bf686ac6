import type { BrowserContext } from 'playwright-core';

/**
 * A stand-in for Stripe.js, served through Playwright's request routing in place of
 * https://js.stripe.com/... (this machine has no internet, and Stripe's own script would talk to
 * Stripe). It implements the part of the Stripe.js API the app uses: `Stripe(key)`,
 * `stripe.elements({clientSecret})`, `elements.create('payment')` with mount, ready and loaderror
 * events, `elements.submit()` and `stripe.confirmPayment()`. The form it draws is plain inputs.
 * `confirmPayment` answers the PaymentIntent named by the client secret as succeeded; the test has
 * the fake Stripe server mark it succeeded first, so the server's own check with Stripe passes.
 * Set `window.__stripeStandIn = { readyDelayMs, failLoad, confirmError }` before it loads to vary it.
 */
export const STRIPE_JS_STAND_IN = `
(() => {
  const options = () => window.__stripeStandIn || {};
  function Stripe(key) {
    if (!key || !String(key).startsWith('pk_')) throw new Error('Stripe stand-in: invalid publishable key');
    let clientSecret = null;
    const elements = (elementsOptions) => {
      clientSecret = (elementsOptions && elementsOptions.clientSecret) || null;
      const group = {
        create(type) {
          const handlers = {};
          let node = null;
          const fire = (event, payload) => (handlers[event] || []).forEach((handler) => handler(payload || { elementType: type }));
          const element = {
            mount(target) {
              node = typeof target === 'string' ? document.querySelector(target) : target;
              const delay = options().readyDelayMs ?? 300;
              setTimeout(() => {
                if (options().failLoad) return fire('loaderror', { elementType: type, error: { message: 'stand-in load failure' } });
                node.innerHTML = '<div data-testid="stripe-stand-in" style="display:grid;gap:8px">'
                  + '<label>Card number <input aria-label="Card number" value="4242 4242 4242 4242" style="width:100%"></label>'
                  + '<label>Expiry <input aria-label="Expiry" value="12 / 34"></label>'
                  + '<label>CVC <input aria-label="CVC" value="123"></label></div>';
                fire('ready');
              }, delay);
            },
            on(event, handler) { (handlers[event] = handlers[event] || []).push(handler); return element; },
            off(event, handler) { handlers[event] = (handlers[event] || []).filter((h) => h !== handler); return element; },
            update() {},
            unmount() { if (node) node.innerHTML = ''; },
            destroy() { if (node) node.innerHTML = ''; },
          };
          return element;
        },
        getElement() { return null; },
        update() {},
        submit: async () => ({}),
      };
      return group;
    };
    return {
      elements,
      async confirmPayment() {
        const error = options().confirmError;
        if (error) return { error: { type: 'card_error', message: error } };
        const id = String(clientSecret || '').split('_secret_')[0];
        return { paymentIntent: { id, object: 'payment_intent', status: 'succeeded', client_secret: clientSecret } };
      },
    };
  }
  Stripe.version = 'endive';
  window.Stripe = Stripe;
})();
`;

/** Serves the stand-in for every Stripe.js URL in this browser context. */
export async function routeStripeJs(context: BrowserContext): Promise<void> {
  await context.route('https://js.stripe.com/**', (route) =>
    route.fulfill({ status: 200, contentType: 'application/javascript', body: STRIPE_JS_STAND_IN }),
  );
}
