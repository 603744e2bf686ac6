import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { WebhookDelivery, WebhookEndpoint } from '../../../shared/webhooks';
import { dismissToast } from '../../components/ui/use-toast';
import { callsTo, createAuthUser, json, postedBodies, renderApp, stubApi } from '../testing/render-app';

afterEach(() => {
  cleanup();
  dismissToast();
  vi.unstubAllGlobals();
});

const SECRET = `whsec_${'A'.repeat(43)}=`;
const endpoint = (id: string, url: string): WebhookEndpoint => ({
  id,
  url,
  events: ['video.completed', 'video.failed'],
  createdAt: '2026-11-20T10:00:00.000Z',
});
const delivery = (over: Partial<WebhookDelivery> = {}): WebhookDelivery => ({
  id: 'd1',
  messageId: 'msg_1',
  eventType: 'video.completed',
  status: 'failed',
  attempts: 8,
  nextAttemptAt: null,
  createdAt: '2026-11-20T10:00:00.000Z',
  log: [
    { attempt: 2, responseStatus: 500, durationMs: 31, error: 'HTTP 500', at: '2026-11-20T10:00:05.000Z' },
    { attempt: 1, responseStatus: null, durationMs: 2, error: 'Connection refused.', at: '2026-11-20T10:00:00.000Z' },
  ],
  ...over,
});

function baseRoutes(state: { endpoints: WebhookEndpoint[] }) {
  return {
    'GET /api/auth/user': () => json(200, createAuthUser()),
    'GET /api/auth/providers': () => json(200, { oidc: null, google: false, passwordReset: false }),
    'GET /api/account/sign-ins': () => json(200, { hasPassword: true, identities: [] }),
    'GET /api/account/webhooks': () => json(200, state.endpoints),
  };
}

describe('the Webhooks section of /account', () => {
  it('adds an endpoint with the chosen events and shows its secret once, with Copy', async () => {
    const state = { endpoints: [] as WebhookEndpoint[] };
    const fetchMock = stubApi({
      ...baseRoutes(state),
      'POST /api/account/webhooks': () => {
        state.endpoints = [
          { ...endpoint('w1', 'https://hooks.example.com/in'), events: ['video.completed', 'video.progress'] },
        ];
        return json(201, { ...state.endpoints[0], secret: SECRET });
      },
    });
    const user = userEvent.setup();
    renderApp('/account');
    expect(await screen.findByText('No endpoints yet.', undefined, { timeout: 30_000 })).toBeDefined();

    await user.type(screen.getByLabelText('Endpoint URL'), 'https://hooks.example.com/in');
    // video.completed and video.failed start checked; progress is opt-in.
    const progress = screen.getByRole('checkbox', { name: /video\.progress/ });
    expect((progress as HTMLInputElement).checked).toBe(false);
    await user.click(progress);
    await user.click(screen.getByRole('checkbox', { name: /video\.failed/ }));
    await user.click(screen.getByRole('button', { name: 'Add endpoint' }));

    const shown = await screen.findByRole('status', { name: 'Signing secret' });
    expect(within(shown).getByText(SECRET)).toBeDefined();
    expect(postedBodies(fetchMock, '/api/account/webhooks')).toEqual([
      { url: 'https://hooks.example.com/in', events: ['video.completed', 'video.progress'] },
    ]);
    await user.click(within(shown).getByRole('button', { name: 'Copy secret' }));
    expect(await navigator.clipboard.readText()).toBe(SECRET);
    expect(await within(shown).findByRole('button', { name: 'Copied' })).toBeDefined();

    const list = await screen.findByRole('list', { name: 'Webhook endpoints' });
    expect(within(list).getByText('https://hooks.example.com/in')).toBeDefined();
    expect(within(list).getByText('video.progress')).toBeDefined();

    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    expect(screen.queryByText(SECRET)).toBeNull();
  }, 90_000);

  it('shows the server’s reason when an address is refused', async () => {
    stubApi({
      ...baseRoutes({ endpoints: [] }),
      'POST /api/account/webhooks': () =>
        json(422, { code: 'webhook_url_refused', message: 'The webhook URL points to a private or reserved address.' }),
    });
    const user = userEvent.setup();
    renderApp('/account');
    await user.type(
      await screen.findByLabelText('Endpoint URL', undefined, { timeout: 30_000 }),
      'http://169.254.169.254/',
    );
    await user.click(screen.getByRole('button', { name: 'Add endpoint' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The webhook URL points to a private or reserved address.',
    );
  }, 90_000);

  it('sends a test event, lists deliveries with their status codes, redelivers one and deletes the endpoint', async () => {
    const state = { endpoints: [endpoint('w1', 'https://hooks.example.com/in')] };
    let deliveries = [delivery()];
    const fetchMock = stubApi({
      ...baseRoutes(state),
      'POST /api/account/webhooks/w1/test': () => {
        const sent = delivery({
          id: 'd2',
          eventType: 'webhook.test',
          status: 'succeeded',
          attempts: 1,
          log: [{ attempt: 1, responseStatus: 204, durationMs: 12, error: null, at: '2026-11-20T11:00:00.000Z' }],
        });
        deliveries = [sent, ...deliveries];
        return json(200, sent);
      },
      'GET /api/account/webhooks/w1/deliveries': () => json(200, deliveries),
      'POST /api/account/webhooks/w1/deliveries/d1/redeliver': () =>
        json(
          200,
          delivery({
            id: 'd3',
            status: 'succeeded',
            attempts: 1,
            log: [{ attempt: 1, responseStatus: 200, durationMs: 9, error: null, at: '2026-11-20T12:00:00.000Z' }],
          }),
        ),
      'DELETE /api/account/webhooks/w1': () => {
        state.endpoints = [];
        return json(200, { message: 'The webhook endpoint was deleted.' });
      },
    });
    const user = userEvent.setup();
    renderApp('/account');

    await user.click(
      await screen.findByRole(
        'button',
        { name: 'Send test event to https://hooks.example.com/in' },
        { timeout: 30_000 },
      ),
    );
    expect(await screen.findByText('Test Delivered')).toBeDefined();
    const log = await screen.findByRole('list', { name: 'Deliveries' });
    await waitFor(() => expect(within(log).getByText('webhook.test')).toBeDefined());
    expect(within(log).getByText('Delivered')).toBeDefined();
    expect(within(log).getByText('Failed')).toBeDefined();
    expect(within(log).getByText(/Attempt 1: HTTP 204 in 12 ms/)).toBeDefined();
    expect(within(log).getByText(/Attempt 2: HTTP 500 in 31 ms/)).toBeDefined();
    expect(within(log).getByText(/Connection refused\./)).toBeDefined();

    await user.click(within(log).getAllByRole('button', { name: /Redeliver video\.completed/ })[0] as HTMLElement);
    expect(await screen.findByText('Redelivered')).toBeDefined();
    expect(callsTo(fetchMock, '/api/account/webhooks/w1/deliveries/d1/redeliver')).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Delete https://hooks.example.com/in' }));
    expect(await screen.findByText('No endpoints yet.')).toBeDefined();
  }, 90_000);
});
