import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { AdminUser } from '../../../shared/admin';
import { dismissToast } from '../../components/ui/use-toast';
import { createAuthUser, json, renderApp, stubApi } from '../testing/render-app';

const ADA_ID = '0b7f1c1e-6d0a-4b8e-9a57-0c1d2e3f4a51';

/** Every figure different, so a value shown or sent under the wrong label cannot pass. */
const ada: AdminUser = {
  id: ADA_ID,
  email: 'ada.lovelace.with.a.long.address@example.com',
  firstName: 'Ada',
  lastName: 'Byron',
  displayName: 'Ada Byron',
  isAdmin: false,
  createdAt: '2025-01-05T12:00:00.000Z',
  availableCredits: 12,
  totalCreditsUsed: 3,
  creditsLast30Days: 4,
  totalLifetimeCredits: 15,
  subscriptionStatus: 'trial',
  dailySpendCap: null,
};

/**
 * The browser's answer to the page's media query (jsdom has no layout): a phone below the md
 * breakpoint unless `wide`; `resize` turns the window and tells the listeners, as a browser does.
 */
function stubViewport(wide: boolean) {
  let matches = wide;
  const listeners = new Set<() => void>();
  vi.stubGlobal('matchMedia', (media: string) => ({
    get matches() {
      return /min-width/.test(media) ? matches : false;
    },
    media,
    addEventListener: (_type: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_type: string, listener: () => void) => listeners.delete(listener),
  }));
  return {
    resize(next: boolean) {
      matches = next;
      act(() => listeners.forEach((listener) => listener()));
    },
  };
}

function usersRequests(fetchMock: ReturnType<typeof stubApi>): URLSearchParams[] {
  return fetchMock.mock.calls
    .filter(([, init]) => (init?.method ?? 'GET') === 'GET')
    .map(
      ([input]) =>
        new URL(
          typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
          window.location.origin,
        ),
    )
    .filter((url) => url.pathname === '/api/admin/users')
    .map((url) => url.searchParams);
}

/** The value a card shows under a label. */
function fact(card: HTMLElement, label: string): string | null | undefined {
  return within(card).getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;
}

async function renderOnPhone(routes: Parameters<typeof stubApi>[0] = {}) {
  const viewport = stubViewport(false);
  const fetchMock = stubApi({
    'GET /api/auth/user': () => json(200, createAuthUser({ isAdmin: true })),
    'GET /api/admin/users': () => json(200, [ada]),
    'GET /api/admin/stats': () => json(200, { totalUsers: 1, activeCredits: 12, creditsUsed: 3, creditsLast30Days: 4 }),
    ...routes,
  });
  const user = userEvent.setup();
  renderApp('/admin');
  const list = await screen.findByRole('list', { name: 'Users' });
  return { fetchMock, user, viewport, list };
}

afterEach(() => {
  cleanup();
  dismissToast();
  vi.unstubAllGlobals();
});

describe('the /admin page on a phone', () => {
  it('shows each user as a card with every column under its own label, and no table', async () => {
    const { list } = await renderOnPhone();

    expect(screen.queryByRole('table')).toBeNull();
    const card = within(list).getByRole('listitem', { name: ada.email });
    expect(fact(card, 'Email')).toBe(ada.email);
    expect(fact(card, 'Name')).toBe('Ada Byron');
    expect(fact(card, 'Signed Up')).toBe('Jan 5, 2025');
    expect(fact(card, 'Status')).toBe('Trial');
    expect(fact(card, 'Current Credits')).toBe('12');
    expect(fact(card, 'Credits Used')).toBe('3');
    expect(fact(card, 'Credits Last 30d')).toBe('4');
    expect(fact(card, 'Lifetime Credits')).toBe('15');
    expect(within(card).getByRole('button', { name: `Edit ${ada.email}` })).toBeDefined();
    expect(within(card).getByRole('button', { name: `Delete ${ada.email}` })).toBeDefined();
  });

  it("sorts through the 'Sort by' menu with the header's keys and rule", async () => {
    const { fetchMock, user } = await renderOnPhone();
    const sortBy = screen.getByLabelText<HTMLSelectElement>('Sort by');
    const order = screen.getByLabelText<HTMLSelectElement>('Order');
    expect(Array.from(sortBy.options, (option) => option.text)).toEqual([
      'Email',
      'Name',
      'Signed Up',
      'Current Credits',
      'Credits Used',
      'Credits Last 30d',
      'Lifetime Credits',
    ]);
    expect([sortBy.value, order.value]).toEqual(['createdAt', 'desc']);

    // A newly chosen key starts ascending, as a newly clicked column does.
    await user.selectOptions(sortBy, 'Current Credits');
    await waitFor(() => expect(usersRequests(fetchMock)).toHaveLength(2));
    expect(usersRequests(fetchMock)[1]?.toString()).toContain('sort=availableCredits&order=asc');
    expect(order.value).toBe('asc');

    await user.selectOptions(order, 'Descending');
    await waitFor(() => expect(usersRequests(fetchMock)).toHaveLength(3));
    expect(usersRequests(fetchMock)[2]?.toString()).toContain('sort=availableCredits&order=desc');

    await user.selectOptions(sortBy, 'Credits Used');
    await waitFor(() => expect(usersRequests(fetchMock)).toHaveLength(4));
    expect(usersRequests(fetchMock)[3]?.toString()).toContain('sort=totalCreditsUsed&order=asc');
  });

  it('edits a user in the card with each input under its own label, and sends each value in its own field', async () => {
    const { fetchMock, user, list } = await renderOnPhone({
      [`PATCH /api/admin/users/${ADA_ID}`]: () => json(200, { message: `${ada.email} was updated.` }),
    });
    await user.click(within(list).getByRole('button', { name: `Edit ${ada.email}` }));
    const card = within(list).getByRole('listitem', { name: ada.email });

    // Each input has a visible label of its own, holding that field's value.
    const values: Record<string, string> = {
      Email: ada.email,
      'First name': 'Ada',
      'Last name': 'Byron',
      'Current credits': '12',
      'Credits used': '3',
      Status: 'trial',
      'Daily spend cap': '',
    };
    for (const [label, value] of Object.entries(values)) {
      const input = within(card).getByLabelText<HTMLInputElement>(label);
      expect(input.value, label).toBe(value);
      expect(within(card).getByText(label, { selector: 'label' }).getAttribute('for')).toBe(input.id);
    }
    expect(document.activeElement).toBe(within(card).getByLabelText('Email'));
    expect(fact(card, 'Lifetime Credits')).toBe('15');

    await user.clear(within(card).getByLabelText('First name'));
    await user.type(within(card).getByLabelText('First name'), 'Augusta');
    await user.clear(within(card).getByLabelText('Current credits'));
    await user.type(within(card).getByLabelText('Current credits'), '25');
    await user.clear(within(card).getByLabelText('Credits used'));
    await user.type(within(card).getByLabelText('Credits used'), '5');
    await user.click(within(card).getByRole('button', { name: `Save ${ada.email}` }));

    await waitFor(() => expect(screen.queryByRole('button', { name: `Save ${ada.email}` })).toBeNull());
    const patch = fetchMock.mock.calls.find(([, init]) => init?.method === 'PATCH')?.[1]?.body;
    expect(JSON.parse(typeof patch === 'string' ? patch : 'null')).toMatchObject({
      firstName: 'Augusta',
      lastName: 'Byron',
      email: ada.email,
      availableCredits: 25,
      totalCreditsUsed: 5,
      subscriptionStatus: 'trial',
      original: { availableCredits: 12, totalCreditsUsed: 3 },
    });
  });

  it('tapping a figure edits it; Cancel leaves the card as it was', async () => {
    const { fetchMock, user, list } = await renderOnPhone();
    await user.click(within(list).getByText('Credits Used', { selector: 'dt' }));
    const card = within(list).getByRole('listitem', { name: ada.email });
    expect(document.activeElement).toBe(within(card).getByLabelText('Credits used'));

    await user.click(within(card).getByRole('button', { name: `Cancel editing ${ada.email}` }));
    expect(within(list).getByRole('button', { name: `Edit ${ada.email}` })).toBeDefined();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PATCH')).toBe(false);
  });

  it('turns into the table when the window widens past the md breakpoint, keeping what was typed', async () => {
    const { viewport, user, list } = await renderOnPhone();
    await user.click(within(list).getByRole('button', { name: `Edit ${ada.email}` }));
    await user.clear(within(list).getByLabelText('Credits used'));
    await user.type(within(list).getByLabelText('Credits used'), '9');

    viewport.resize(true);
    const table = await screen.findByRole('table');
    expect(screen.queryByRole('list', { name: 'Users' })).toBeNull();
    expect(screen.queryByLabelText('Sort by')).toBeNull();
    expect(within(table).getByRole('columnheader', { name: 'Credits Used' })).toBeDefined();
    expect(within(table).getByLabelText<HTMLInputElement>('Credits used').value).toBe('9');
    expect(within(table).getByLabelText<HTMLInputElement>('Current credits').value).toBe('12');
  });
});
