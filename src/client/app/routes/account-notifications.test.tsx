import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { dismissToast } from '../../components/ui/use-toast';
import { createAuthUser, json, postedBodies, renderApp, stubApi } from '../testing/render-app';

afterEach(() => {
  cleanup();
  dismissToast();
  vi.unstubAllGlobals();
});

const settings = (email: { available: boolean; enabled: boolean }, subscriptions = 0) => ({
  email,
  push: { publicKey: 'B'.repeat(87), subscriptions },
});

describe('notifications on /account', () => {
  it('turns e-mail on where the server sends mail, and says when this browser cannot be notified', async () => {
    let current = settings({ available: true, enabled: false }, 2);
    const fetchMock = stubApi({
      'GET /api/auth/user': () => json(200, createAuthUser()),
      'GET /api/notifications': () => json(200, current),
      'PUT /api/notifications/email': () => {
        current = settings({ available: true, enabled: true }, 2);
        return json(200, current);
      },
    });
    const user = userEvent.setup();
    renderApp('/account');
    expect(await screen.findByRole('heading', { name: 'Notifications' })).toBeDefined();
    // jsdom has no Push API: said plainly, with the other browsers that are notified.
    expect(
      await screen.findByText(
        'This browser cannot show notifications from websites. 2 other browsers are notified too.',
      ),
    ).toBeDefined();
    const emailSwitch = screen.getByRole('switch', { name: 'E-mail me' });
    expect(emailSwitch.getAttribute('aria-checked')).toBe('false');
    await user.click(emailSwitch);
    await waitFor(() => expect(emailSwitch.getAttribute('aria-checked')).toBe('true'));
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(put?.[1]?.body).toBe(JSON.stringify({ enabled: true }));
  });

  it('offers no e-mail choice where the server sends no mail', async () => {
    stubApi({
      'GET /api/auth/user': () => json(200, createAuthUser()),
      'GET /api/notifications': () => json(200, settings({ available: false, enabled: false })),
    });
    renderApp('/account');
    expect(await screen.findByText('This browser cannot show notifications from websites.')).toBeDefined();
    expect(screen.queryByRole('switch', { name: 'E-mail me' })).toBeNull();
  });

  it('tells the server while the tab is in front of the user', async () => {
    const fetchMock = stubApi({
      'GET /api/auth/user': () => json(200, createAuthUser()),
      'POST /api/notifications/presence': () => new Response(null, { status: 204 }),
    });
    renderApp('/account');
    await waitFor(() =>
      expect(postedBodies(fetchMock, '/api/notifications/presence')).toContainEqual({ visible: true }),
    );
    window.dispatchEvent(new Event('pagehide'));
    await waitFor(() =>
      expect(postedBodies(fetchMock, '/api/notifications/presence')).toContainEqual({ visible: false }),
    );
  });
});
