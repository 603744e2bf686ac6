import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local server answering the few Stripe API endpoints the product calls, in Stripe's wire format:
 * form-encoded requests with bracketed keys, bearer-key auth, JSON objects and Stripe's error body.
 * The real `stripe` SDK is pointed at it (host, port, protocol). Test helpers move objects through
 * the states Stripe itself would (a card confirmed, a Checkout paid, a subscription activated).
 */

type Params = Record<string, unknown>;
type StripeObject = Record<string, unknown> & { id: string };

export interface FakeStripe {
  /** http://127.0.0.1:port, for STRIPE_API_URL. */
  url: string;
  secretKey: string;
  /** Every request received: method, path and decoded parameters. */
  requests: Array<{ method: string; path: string; params: Params }>;
  paymentIntents: Map<string, StripeObject>;
  sessions: Map<string, StripeObject>;
  subscriptions: Map<string, StripeObject>;
  schedules: Map<string, StripeObject>;
  customers: Map<string, StripeObject>;
  prices: Map<string, StripeObject>;
  /** Billing portal sessions created (POST /v1/billing_portal/sessions). */
  portalSessions: Map<string, StripeObject>;
  /** The card form succeeded: the PaymentIntent is `succeeded` (or another status). */
  setPaymentIntentStatus(id: string, status: string): StripeObject;
  /** The hosted Checkout was paid: the session is complete and paid, with its own succeeded PaymentIntent. */
  paySession(id: string): StripeObject;
  /**
   * Refunds `amount` cents (default: what is left) of a succeeded PaymentIntent, as the Dashboard
   * would; answers its charge, whose amount_refunded is the total refunded so far (charge.refunded).
   */
  refund(paymentIntentId: string, amount?: number): StripeObject;
  /** Sets a subscription's status, as paying (or failing to pay) its invoices would. */
  setSubscriptionStatus(id: string, status: string): StripeObject;
  /** A webhook event envelope around an object, as Stripe posts it. */
  event(
    type: string,
    object: StripeObject,
  ): { id: string; object: 'event'; type: string; data: { object: StripeObject } } & Params;
  close(): Promise<void>;
}

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const now = () => Math.floor(Date.now() / 1000);

/** Decodes Stripe's form encoding (`a[b][0][c]=x`) into nested objects and arrays. */
export function decodeStripeForm(encoded: string): Params {
  const root: Params = {};
  for (const [key, value] of new URLSearchParams(encoded)) {
    const path = key.replace(/\]/g, '').split('[');
    let node: Params = root;
    path.forEach((part, index) => {
      if (index === path.length - 1) {
        node[part] = value;
      } else {
        node[part] ??= {};
        node = node[part] as Params;
      }
    });
  }
  return arrayify(root) as Params;
}

function arrayify(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value as Params).map(([k, v]) => [k, arrayify(v)] as const);
  if (entries.length > 0 && entries.every(([k]) => /^\d+$/.test(k))) {
    return entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, v]) => v);
  }
  return Object.fromEntries(entries);
}

class StripeHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Params,
  ) {
    super(String(body.message));
  }
}

const missing = (kind: string, id: string) =>
  new StripeHttpError(404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    message: `No such ${kind}: '${id}'`,
    param: 'id',
  });

function lookup(map: Map<string, StripeObject>, kind: string, id: string): StripeObject {
  const found = map.get(id);
  if (!found) throw missing(kind, id);
  return found;
}

export async function startFakeStripe(secretKey = `sk_test_${randomBytes(8).toString('hex')}`): Promise<FakeStripe> {
  const requests: FakeStripe['requests'] = [];
  const paymentIntents = new Map<string, StripeObject>();
  const sessions = new Map<string, StripeObject>();
  const subscriptions = new Map<string, StripeObject>();
  const schedules = new Map<string, StripeObject>();
  const customers = new Map<string, StripeObject>();
  const prices = new Map<string, StripeObject>();
  const invoices = new Map<string, StripeObject>();
  const portalSessions = new Map<string, StripeObject>();
  const charges = new Map<string, StripeObject>();

  /** The charge of a succeeded PaymentIntent, made when it first is asked for. */
  function chargeOf(intent: StripeObject): StripeObject {
    if (typeof intent.latest_charge === 'string') return lookup(charges, 'charge', intent.latest_charge);
    const charge: StripeObject = {
      id: newId('ch'),
      object: 'charge',
      amount: intent.amount,
      amount_captured: intent.amount,
      amount_refunded: 0,
      refunded: false,
      currency: intent.currency,
      paid: true,
      status: 'succeeded',
      payment_intent: intent.id,
      customer: intent.customer ?? null,
      receipt_url: `https://pay.stripe.com/receipts/payment/test_${intent.id}`,
      metadata: {},
      created: now(),
      livemode: false,
    };
    charges.set(charge.id, charge);
    intent.latest_charge = charge.id;
    return charge;
  }

  function createPaymentIntent(params: Params): StripeObject {
    const id = newId('pi');
    const intent: StripeObject = {
      id,
      object: 'payment_intent',
      amount: Number(params.amount),
      amount_received: 0,
      currency: typeof params.currency === 'string' ? params.currency : 'usd',
      status: 'requires_payment_method',
      client_secret: `${id}_secret_${randomBytes(8).toString('hex')}`,
      customer: params.customer ?? null,
      description: params.description ?? null,
      metadata: params.metadata ?? {},
      payment_method_types: ['card'],
      created: now(),
      livemode: false,
    };
    paymentIntents.set(id, intent);
    return intent;
  }

  function invoiceFor(subscription: StripeObject, expand: string[]): unknown {
    const invoice = lookup(invoices, 'invoice', String(subscription.latest_invoice));
    return expand.some((e) => e.startsWith('latest_invoice')) ? invoice : invoice.id;
  }

  function presentSubscription(subscription: StripeObject, params: Params): StripeObject {
    const expand = (params.expand as string[] | undefined) ?? [];
    const schedule =
      expand.includes('schedule') && typeof subscription.schedule === 'string'
        ? (schedules.get(subscription.schedule) ?? null)
        : subscription.schedule;
    return { ...subscription, latest_invoice: invoiceFor(subscription, expand), schedule };
  }

  const routes: Array<[method: string, pattern: RegExp, handle: (params: Params, match: RegExpMatchArray) => unknown]> =
    [
      // The settings page's key check: https://docs.stripe.com/api/balance/balance_retrieve (reads nothing but totals).
      [
        'GET',
        /^\/v1\/balance$/,
        () => ({
          object: 'balance',
          available: [{ amount: 0, currency: 'usd', source_types: { card: 0 } }],
          pending: [{ amount: 0, currency: 'usd', source_types: { card: 0 } }],
          livemode: false,
        }),
      ],
      [
        'POST',
        /^\/v1\/customers$/,
        (p) => {
          const customer: StripeObject = {
            id: newId('cus'),
            object: 'customer',
            email: p.email ?? null,
            name: p.name ?? null,
            metadata: p.metadata ?? {},
            created: now(),
            livemode: false,
          };
          customers.set(customer.id, customer);
          return customer;
        },
      ],
      [
        'POST',
        /^\/v1\/payment_intents$/,
        (p) => {
          if (!Number.isInteger(Number(p.amount)) || Number(p.amount) < 50) {
            throw new StripeHttpError(400, {
              type: 'invalid_request_error',
              code: 'amount_too_small',
              message: 'Amount must be at least $0.50 usd',
              param: 'amount',
            });
          }
          return createPaymentIntent(p);
        },
      ],
      [
        'GET',
        /^\/v1\/payment_intents\/([^/]+)$/,
        (p, m) => {
          const intent = lookup(paymentIntents, 'payment_intent', m[1] ?? '');
          // A succeeded PaymentIntent has a charge (with its receipt_url); `expand[]=latest_charge` embeds it.
          if (intent.status === 'succeeded') chargeOf(intent);
          const expand = (p.expand as string[] | undefined) ?? [];
          return expand.includes('latest_charge') && typeof intent.latest_charge === 'string'
            ? { ...intent, latest_charge: lookup(charges, 'charge', intent.latest_charge) }
            : intent;
        },
      ],
      [
        'POST',
        /^\/v1\/checkout\/sessions$/,
        (p) => {
          const id = newId('cs_test');
          const items = (p.line_items as Params[] | undefined) ?? [];
          const amount = items.reduce(
            (sum, item) =>
              sum + Number(item.quantity ?? 1) * Number((item.price_data as Params | undefined)?.unit_amount ?? 0),
            0,
          );
          const session: StripeObject = {
            id,
            object: 'checkout.session',
            mode: p.mode,
            status: 'open',
            payment_status: 'unpaid',
            amount_total: amount,
            currency: 'usd',
            client_reference_id: p.client_reference_id ?? null,
            customer: p.customer ?? null,
            customer_email: p.customer_email ?? null,
            metadata: p.metadata ?? {},
            payment_intent: null,
            success_url: p.success_url,
            cancel_url: p.cancel_url,
            url: `https://checkout.stripe.com/c/pay/${id}`,
            created: now(),
            livemode: false,
            payment_intent_data_metadata: (p.payment_intent_data as Params | undefined)?.metadata ?? {},
          };
          sessions.set(id, session);
          return session;
        },
      ],
      ['GET', /^\/v1\/checkout\/sessions\/([^/]+)$/, (_p, m) => lookup(sessions, 'checkout.session', m[1] ?? '')],
      [
        'GET',
        /^\/v1\/prices$/,
        (p) => {
          const keys = (p.lookup_keys as string[] | undefined) ?? [];
          const data = [...prices.values()].filter(
            (price) => keys.length === 0 || keys.includes(String(price.lookup_key)),
          );
          return { object: 'list', data, has_more: false, url: '/v1/prices' };
        },
      ],
      [
        'POST',
        /^\/v1\/prices$/,
        (p) => {
          if (p.lookup_key && [...prices.values()].some((price) => price.lookup_key === p.lookup_key)) {
            throw new StripeHttpError(400, {
              type: 'invalid_request_error',
              message: `A price (\`${JSON.stringify(p.lookup_key)}\`) already uses that lookup key.`,
              param: 'lookup_key',
            });
          }
          const product = typeof p.product === 'string' ? p.product : newId('prod');
          const price: StripeObject = {
            id: newId('price'),
            object: 'price',
            active: true,
            currency: p.currency,
            unit_amount: Number(p.unit_amount),
            recurring: p.recurring ? { interval: (p.recurring as Params).interval, interval_count: 1 } : null,
            lookup_key: p.lookup_key ?? null,
            nickname: p.nickname ?? null,
            product,
            type: p.recurring ? 'recurring' : 'one_time',
            livemode: false,
          };
          prices.set(price.id, price);
          return price;
        },
      ],
      [
        'POST',
        /^\/v1\/subscriptions$/,
        (p) => {
          const customer = lookup(customers, 'customer', String(p.customer));
          const start = now();
          const items = ((p.items as Params[] | undefined) ?? []).map((item) => {
            const price = lookup(prices, 'price', String(item.price));
            const days = Number((price.recurring as Params | null)?.interval_count ?? 1);
            return {
              id: newId('si'),
              object: 'subscription_item',
              price,
              quantity: 1,
              current_period_start: start,
              current_period_end: start + days * 86_400,
            };
          });
          const subscriptionId = newId('sub');
          const firstPrice = (items[0]?.price.unit_amount as number | undefined) ?? 0;
          const intent = createPaymentIntent({ amount: firstPrice, currency: 'usd', customer: customer.id });
          const invoice: StripeObject = {
            id: newId('in'),
            object: 'invoice',
            customer: customer.id,
            status: 'open',
            amount_due: firstPrice,
            amount_paid: 0,
            currency: 'usd',
            created: now(),
            hosted_invoice_url: null,
            confirmation_secret: { client_secret: intent.client_secret, type: 'payment_intent' },
            parent: {
              type: 'subscription_details',
              subscription_details: { subscription: subscriptionId, metadata: p.metadata ?? {} },
            },
            payment_intent_for_tests: intent.id,
          };
          invoices.set(invoice.id, invoice);
          const subscription: StripeObject = {
            id: subscriptionId,
            object: 'subscription',
            customer: customer.id,
            status: 'incomplete',
            metadata: p.metadata ?? {},
            items: { object: 'list', data: items },
            latest_invoice: invoice.id,
            schedule: null,
            cancel_at_period_end: false,
            cancel_at: null,
            canceled_at: null,
            ended_at: null,
            created: start,
            livemode: false,
          };
          subscriptions.set(subscriptionId, subscription);
          return presentSubscription(subscription, p);
        },
      ],
      [
        'GET',
        /^\/v1\/subscriptions\/([^/]+)$/,
        (p, m) => presentSubscription(lookup(subscriptions, 'subscription', m[1] ?? ''), p),
      ],
      // Update: cancel at the period's end (refused while a schedule manages the subscription, as Stripe does), metadata.
      [
        'POST',
        /^\/v1\/subscriptions\/([^/]+)$/,
        (p, m) => {
          const subscription = lookup(subscriptions, 'subscription', m[1] ?? '');
          if (subscription.status === 'canceled') {
            throw new StripeHttpError(400, {
              type: 'invalid_request_error',
              message: 'A canceled subscription can only update its cancellation_details and metadata.',
            });
          }
          if (p.cancel_at_period_end !== undefined) {
            if (subscription.schedule) {
              throw new StripeHttpError(400, {
                type: 'invalid_request_error',
                message: `The subscription is managed by the subscription schedule \`${subscription.schedule as string}\`, and updating any cancelation behavior directly is not allowed. Please update the schedule instead.`,
              });
            }
            const end =
              (subscription.items as { data: Array<{ current_period_end: number }> }).data[0]?.current_period_end ??
              now();
            subscription.cancel_at_period_end = p.cancel_at_period_end === 'true';
            subscription.cancel_at = subscription.cancel_at_period_end ? end : null;
          }
          if (p.metadata) subscription.metadata = { ...(subscription.metadata as Params), ...(p.metadata as Params) };
          return presentSubscription(subscription, p);
        },
      ],
      // Cancel at once: no further invoices; an attached schedule is canceled with it.
      [
        'DELETE',
        /^\/v1\/subscriptions\/([^/]+)$/,
        (p, m) => {
          const subscription = lookup(subscriptions, 'subscription', m[1] ?? '');
          if (subscription.status === 'canceled') {
            throw new StripeHttpError(400, {
              type: 'invalid_request_error',
              code: 'resource_missing',
              message: `No such subscription: '${subscription.id}'`,
            });
          }
          const at = now();
          Object.assign(subscription, {
            status: 'canceled',
            canceled_at: at,
            ended_at: at,
            cancel_at_period_end: false,
          });
          const schedule = typeof subscription.schedule === 'string' ? schedules.get(subscription.schedule) : undefined;
          if (schedule) schedule.status = 'canceled';
          return presentSubscription(subscription, p);
        },
      ],
      [
        'POST',
        /^\/v1\/billing_portal\/sessions$/,
        (p) => {
          const customer = lookup(customers, 'customer', String(p.customer));
          const id = newId('bps');
          const session: StripeObject = {
            id,
            object: 'billing_portal.session',
            customer: customer.id,
            return_url: p.return_url ?? null,
            url: `https://billing.stripe.com/p/session/test_${id}`,
            created: now(),
            livemode: false,
          };
          portalSessions.set(id, session);
          return session;
        },
      ],
      [
        'GET',
        /^\/v1\/invoices$/,
        (p) => {
          const data = [...invoices.values()]
            .filter(
              (invoice) =>
                (!p.customer || invoice.customer === p.customer) && (!p.status || invoice.status === p.status),
            )
            .sort((a, b) => Number(b.created) - Number(a.created))
            .slice(0, Number(p.limit ?? 10));
          return { object: 'list', data, has_more: false, url: '/v1/invoices' };
        },
      ],
      ['GET', /^\/v1\/charges\/([^/]+)$/, (_p, m) => lookup(charges, 'charge', m[1] ?? '')],
      [
        'POST',
        /^\/v1\/subscription_schedules$/,
        (p) => {
          const subscription = lookup(subscriptions, 'subscription', String(p.from_subscription));
          const start = Number(subscription.created);
          const schedule: StripeObject = {
            id: newId('sub_sched'),
            object: 'subscription_schedule',
            subscription: subscription.id,
            customer: subscription.customer,
            end_behavior: 'release',
            status: 'active',
            phases: [
              {
                start_date: start,
                end_date: start + 86_400,
                items: (subscription.items as { data: Array<{ price: StripeObject }> }).data.map((i) => ({
                  price: i.price.id,
                  quantity: 1,
                })),
              },
            ],
          };
          subscription.schedule = schedule.id;
          schedules.set(schedule.id, schedule);
          return schedule;
        },
      ],
      [
        'POST',
        /^\/v1\/subscription_schedules\/([^/]+)$/,
        (p, m) => {
          const schedule = lookup(schedules, 'subscription_schedule', m[1] ?? '');
          if (p.end_behavior) schedule.end_behavior = p.end_behavior;
          if (p.phases) {
            let start = Number((schedule.phases as Params[])[0]?.start_date);
            schedule.phases = (p.phases as Params[]).map((phase) => {
              for (const item of (phase.items as Params[] | undefined) ?? [])
                lookup(prices, 'price', String(item.price));
              const duration = phase.duration as Params | undefined;
              const days = duration ? Number(duration.interval_count ?? 1) : 1;
              const shown = {
                ...phase,
                start_date: phase.start_date ? Number(phase.start_date) : start,
                end_date: start + days * 86_400,
              };
              start = shown.end_date;
              return shown;
            });
          }
          return schedule;
        },
      ],
    ];

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const url = new URL(request.url ?? '/', 'http://fake');
    const method = request.method ?? 'GET';
    const params = decodeStripeForm(method === 'GET' ? url.search.slice(1) : Buffer.concat(chunks).toString());
    requests.push({ method, path: url.pathname, params });
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json', 'request-id': newId('req') });
      response.end(JSON.stringify(body));
    };
    if (request.headers.authorization !== `Bearer ${secretKey}`) {
      send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
      return;
    }
    for (const [routeMethod, pattern, routeHandle] of routes) {
      const match = url.pathname.match(pattern);
      if (routeMethod !== method || !match) continue;
      try {
        send(200, routeHandle(params, match));
      } catch (error) {
        if (error instanceof StripeHttpError) send(error.status, { error: error.body });
        else send(500, { error: { type: 'api_error', message: String(error) } });
      }
      return;
    }
    send(404, {
      error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${url.pathname}).` },
    });
  }

  const server = createServer((request, response) => {
    void handle(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    secretKey,
    requests,
    paymentIntents,
    sessions,
    subscriptions,
    schedules,
    customers,
    prices,
    portalSessions,
    setPaymentIntentStatus(id, status) {
      const intent = lookup(paymentIntents, 'payment_intent', id);
      intent.status = status;
      if (status === 'succeeded') intent.amount_received = intent.amount;
      return intent;
    },
    paySession(id) {
      const session = lookup(sessions, 'checkout.session', id);
      const intent = createPaymentIntent({
        amount: session.amount_total,
        currency: session.currency,
        metadata: session.payment_intent_data_metadata,
      });
      intent.status = 'succeeded';
      intent.amount_received = intent.amount;
      Object.assign(session, { status: 'complete', payment_status: 'paid', payment_intent: intent.id });
      return session;
    },
    refund(paymentIntentId, amount) {
      const intent = lookup(paymentIntents, 'payment_intent', paymentIntentId);
      if (intent.status !== 'succeeded') throw new Error(`cannot refund a ${String(intent.status)} PaymentIntent`);
      const charge = chargeOf(intent);
      const left = Number(charge.amount) - Number(charge.amount_refunded);
      const refunded = Math.min(left, amount ?? left);
      charge.amount_refunded = Number(charge.amount_refunded) + refunded;
      charge.refunded = charge.amount_refunded === charge.amount;
      return { ...charge };
    },
    setSubscriptionStatus(id, status) {
      const subscription = lookup(subscriptions, 'subscription', id);
      subscription.status = status;
      // Becoming active is its first invoice being paid.
      const invoice = invoices.get(String(subscription.latest_invoice));
      if (status === 'active' && invoice && invoice.status === 'open') {
        Object.assign(invoice, {
          status: 'paid',
          amount_paid: invoice.amount_due,
          hosted_invoice_url: `https://invoice.stripe.com/i/test_${invoice.id}`,
        });
      }
      return presentSubscription(subscription, {});
    },
    event(type, object) {
      return {
        id: newId('evt'),
        object: 'event',
        type,
        api_version: '2026-10-28.endive',
        created: now(),
        livemode: false,
        pending_webhooks: 1,
        request: { id: null },
        data: { object },
      };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
