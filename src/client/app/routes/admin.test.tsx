import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { type AdminUser, adminDeleteConfirmation, NEXT_CURSOR_HEADER } from '../../../shared/admin';
import { dismissToast } from '../../components/ui/use-toast';
import { createAuthUser, json, renderApp, stubApi } from '../testing/render-app';

const ADA_ID = '0b7f1c1e-6d0a-4b8e-9a57-0c1d2e3f4a51';
const GRACE_ID = '5e2d9c8b-1a3f-4c6d-8e9f-a0b1c2d3e4f5';

function createAdminUser(overrides: Partial<AdminUser> = {}): AdminUser {
  return {
    id: ADA_ID,
    email: 'ada@example.com',
    firstName: 'Ada',
    lastName: 'Byron',
    displayName: 'Ada Byron',
    isAdmin: false,
    createdAt: '2025-01-05T12:00:00.000Z',
    availableCredits: 12,
    totalCreditsUsed: 3,
    creditsLast30Days: 4,
    totalLifetimeCredits: 15,
    subscriptionStatus: 'active',
    ...overrides,
  };
}

const ada = createAdminUser();
const grace = createAdminUser({
  id: GRACE_ID,
  email: 'grace@example.com',
  firstName: 'Grace',
  lastName: 'Hopper',
  displayName: 'Grace Hopper',
  isAdmin: true,
  createdAt: '2024-11-20T09:30:00.000Z',
  availableCredits: 1500,
  totalCreditsUsed: 40,
  creditsLast30Days: 9,
  totalLifetimeCredits: 1540,
  subscriptionStatus: 'premium_unlimited',
});

const STATS = { totalUsers: 100_000, activeCredits: 2_500_000, creditsUsed: 98_765, creditsLast30Days: 4321 };
const signedInAdmin = () => json(200, createAuthUser({ isAdmin: true }));
const stats = () => json(200, STATS);

/** The address a stubbed fetch was called with. */
function urlOf(input: RequestInfo | URL): string {
  return typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
}

/** The query strings of every GET /api/admin/users call, in order. */
function usersRequests(fetchMock: ReturnType<typeof stubApi>): URLSearchParams[] {
  return fetchMock.mock.calls
    .filter(([, init]) => (init?.method ?? 'GET') === 'GET')
    .map(([input]) => new URL(urlOf(input), window.location.origin))
    .filter((url) => url.pathname === '/api/admin/users')
    .map((url) => url.searchParams);
}

function bodyOf(fetchMock: ReturnType<typeof stubApi>, method: string): unknown {
  const body = fetchMock.mock.calls.find(([, init]) => init?.method === method)?.[1]?.body;
  return JSON.parse(typeof body === 'string' ? body : 'null');
}

async function findToast(title: string) {
  const region = await screen.findByRole('region', { name: /Notifications/ });
  return within(region).findByText(title);
}

/** Renders /admin for an administrator and waits for the table. */
async function renderAdminPage(routes: Parameters<typeof stubApi>[0] = {}) {
  const fetchMock = stubApi({
    'GET /api/auth/user': signedInAdmin,
    'GET /api/admin/users': () => json(200, [ada, grace]),
    'GET /api/admin/stats': stats,
    ...routes,
  });
  const user = userEvent.setup();
  renderApp('/admin');
  await screen.findByRole('table');
  return { fetchMock, user };
}

afterEach(() => {
  cleanup();
  dismissToast();
  vi.unstubAllGlobals();
});

describe('the /admin page', () => {
  it('shows Checking Access... while the users call is pending', async () => {
    const fetchMock = stubApi({ 'GET /api/auth/user': signedInAdmin });
    const answer = fetchMock.getMockImplementation();
    fetchMock.mockImplementation((input, init) =>
      urlOf(input).startsWith('/api/admin/users') ? new Promise<Response>(() => {}) : answer!(input, init),
    );
    renderApp('/admin');

    expect(await screen.findByText('Checking Access...')).toBeDefined();
    expect(screen.queryByRole('heading', { name: 'Admin Dashboard' })).toBeNull();
  });

  it('denies access when the server answers 403', async () => {
    const fetchMock = stubApi({
      'GET /api/auth/user': () => json(200, createAuthUser()),
      'GET /api/admin/users': () => json(403, { code: 'forbidden', message: 'Administrator access required' }),
    });
    renderApp('/admin');

    expect(await screen.findByRole('heading', { name: 'Access Denied' })).toBeDefined();
    expect(screen.getByText('You do not have administrator privileges to access this page')).toBeDefined();
    expect(screen.getByRole('link', { name: 'Back to Dashboard' }).getAttribute('href')).toBe('/dashboard');
    expect(screen.queryByRole('table')).toBeNull();
    // The tiles are not asked for when access is denied.
    expect(fetchMock.mock.calls.some(([input]) => urlOf(input) === '/api/admin/stats')).toBe(false);
  });

  it('denies access on any other failure of the users call', async () => {
    stubApi({
      'GET /api/auth/user': signedInAdmin,
      'GET /api/admin/users': () => json(500, { code: 'internal', message: 'Something broke' }),
    });
    renderApp('/admin');

    expect(await screen.findByRole('heading', { name: 'Access Denied' })).toBeDefined();
  });

  it('shows the tiles and the users to an administrator, newest first', async () => {
    const { fetchMock } = await renderAdminPage();

    expect(screen.getByRole('heading', { name: 'Admin Dashboard' })).toBeDefined();
    expect(screen.getByRole('link', { name: /Go to Main App/ }).getAttribute('href')).toBe('/dashboard');
    expect(screen.getByRole('button', { name: /Logout/ })).toBeDefined();
    expect(screen.getByRole('heading', { name: 'User Management' })).toBeDefined();

    const tiles = screen.getByRole('region', { name: 'Statistics' });
    expect(await within(tiles).findByText('100,000')).toBeDefined();
    expect(within(tiles).getByText('Total Users')).toBeDefined();
    expect(within(tiles).getByText('Active Credits')).toBeDefined();
    expect(within(tiles).getByText('2,500,000')).toBeDefined();
    expect(within(tiles).getByText('Credits Used')).toBeDefined();
    expect(within(tiles).getByText('98,765')).toBeDefined();
    expect(within(tiles).getByText('Credits Last 30 Days')).toBeDefined();
    expect(within(tiles).getByText('4,321')).toBeDefined();

    const [, adaRow, graceRow] = screen.getAllByRole('row');
    expect(within(adaRow!).getByText('ada@example.com')).toBeDefined();
    expect(within(adaRow!).getByText('Ada Byron')).toBeDefined();
    expect(within(adaRow!).getByText('Jan 5, 2025')).toBeDefined();
    expect(within(adaRow!).getByText('Active')).toBeDefined();
    expect(within(graceRow!).getByText('Admin')).toBeDefined();
    expect(within(graceRow!).getByText('1,500')).toBeDefined();
    expect(within(graceRow!).getByText('Nov 20, 2024')).toBeDefined();

    expect(screen.getByRole('columnheader', { name: 'Signed Up' }).getAttribute('aria-sort')).toBe('descending');
    expect(screen.getByRole('columnheader', { name: 'Email' }).getAttribute('aria-sort')).toBe('none');
    expect(screen.getByRole('columnheader', { name: 'Status' }).hasAttribute('aria-sort')).toBe(false);
    // The access probe's answer is the table's first page: one users call in all.
    const requests = usersRequests(fetchMock);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.get('sort')).toBe('createdAt');
    expect(requests[0]?.get('order')).toBe('desc');
    expect(requests[0]?.has('q')).toBe(false);
  });

  it('sorts on the server: a new column starts ascending, the same column toggles', async () => {
    const { fetchMock, user } = await renderAdminPage();
    const header = () => screen.getByRole('columnheader', { name: 'Current Credits' });

    await user.click(screen.getByRole('button', { name: 'Current Credits' }));
    await waitFor(() => expect(usersRequests(fetchMock)).toHaveLength(2));
    expect(usersRequests(fetchMock)[1]?.toString()).toContain('sort=availableCredits&order=asc');
    expect(header().getAttribute('aria-sort')).toBe('ascending');
    expect(screen.getByRole('columnheader', { name: 'Signed Up' }).getAttribute('aria-sort')).toBe('none');

    await user.click(screen.getByRole('button', { name: 'Current Credits' }));
    await waitFor(() => expect(usersRequests(fetchMock)).toHaveLength(3));
    expect(usersRequests(fetchMock)[2]?.toString()).toContain('sort=availableCredits&order=desc');
    expect(header().getAttribute('aria-sort')).toBe('descending');

    await user.click(screen.getByRole('button', { name: 'Email' }));
    await waitFor(() => expect(usersRequests(fetchMock)).toHaveLength(4));
    expect(usersRequests(fetchMock)[3]?.toString()).toContain('sort=email&order=asc');
  });

  it('searches on the server once typing pauses', async () => {
    let answer: AdminUser[] = [ada, grace];
    const { fetchMock, user } = await renderAdminPage({ 'GET /api/admin/users': () => json(200, answer) });
    answer = [];

    await user.type(screen.getByLabelText('Search users'), 'zelda');
    expect(screen.getByPlaceholderText('Search by email or name...')).toBeDefined();

    expect(await screen.findByText('No users found')).toBeDefined();
    const searches = usersRequests(fetchMock).filter((params) => params.has('q'));
    expect(searches.map((params) => params.get('q'))).toEqual(['zelda']);
    expect(searches[0]?.get('sort')).toBe('createdAt');
  });

  it('loads the next page with the cursor from X-Next-Cursor', async () => {
    const second = createAdminUser({ id: 'c0ffee00-0000-4000-8000-000000000003', email: 'linus@example.com' });
    let calls = 0;
    const { fetchMock, user } = await renderAdminPage({
      'GET /api/admin/users': () => {
        calls += 1;
        if (calls > 1) return json(200, [second]);
        const page = json(200, [ada, grace]);
        page.headers.set(NEXT_CURSOR_HEADER, 'cursor-2');
        return page;
      },
    });

    await user.click(screen.getByRole('button', { name: 'Load more' }));

    expect(await screen.findByText('linus@example.com')).toBeDefined();
    const next = usersRequests(fetchMock)[1];
    expect(next?.get('cursor')).toBe('cursor-2');
    expect(next?.get('sort')).toBe('createdAt');
    expect(next?.get('order')).toBe('desc');
    expect(screen.getByText('ada@example.com')).toBeDefined();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('edits a row in place and sends the admin edit payload', async () => {
    const { fetchMock, user } = await renderAdminPage({
      [`PATCH /api/admin/users/${ADA_ID}`]: () => json(200, { message: 'ada@example.com was updated.' }),
    });

    await user.click(screen.getByRole('button', { name: 'Edit ada@example.com' }));
    // One row edits at a time: clicking a cell of another row moves the editing there.
    await user.click(screen.getByText('grace@example.com'));
    expect(screen.queryByRole('button', { name: 'Save ada@example.com' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Cancel editing grace@example.com' }));
    expect(screen.queryByRole('button', { name: 'Save grace@example.com' })).toBeNull();

    await user.click(screen.getByText('ada@example.com'));
    await user.clear(screen.getByLabelText('First name'));
    await user.type(screen.getByLabelText('First name'), '   ');
    await user.clear(screen.getByLabelText('Last name'));
    await user.type(screen.getByLabelText('Last name'), ' Lovelace ');
    await user.clear(screen.getByLabelText('Current credits'));
    await user.clear(screen.getByLabelText('Credits used'));
    await user.type(screen.getByLabelText('Credits used'), '7');
    await user.selectOptions(screen.getByLabelText('Status'), 'trial');
    const usersCallsBefore = usersRequests(fetchMock).length;
    await user.click(screen.getByRole('button', { name: 'Save ada@example.com' }));

    expect(await findToast('User Updated')).toBeDefined();
    expect(screen.getAllByText('ada@example.com was updated.').length).toBeGreaterThan(0);
    expect(bodyOf(fetchMock, 'PATCH')).toEqual({
      firstName: null,
      lastName: 'Lovelace',
      email: 'ada@example.com',
      availableCredits: 0,
      subscriptionStatus: 'trial',
      totalCreditsUsed: 7,
      // A blank cap follows the operator's default.
      dailySpendCap: null,
      // The row as it was shown: the server writes only what changed and refuses stale credit figures.
      original: {
        firstName: 'Ada',
        lastName: 'Byron',
        email: 'ada@example.com',
        availableCredits: 12,
        totalCreditsUsed: 3,
        subscriptionStatus: 'active',
        dailySpendCap: null,
      },
    });
    expect(screen.queryByRole('button', { name: 'Save ada@example.com' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Edit ada@example.com' })).toBeDefined();
    // The table and the tiles are fetched again.
    expect(usersRequests(fetchMock).length).toBeGreaterThan(usersCallsBefore);
    expect(fetchMock.mock.calls.filter(([input]) => urlOf(input) === '/api/admin/stats')).toHaveLength(2);
  });

  it('puts each input of the edited row under its own column header', async () => {
    const { user } = await renderAdminPage();
    await user.click(screen.getByRole('button', { name: 'Edit ada@example.com' }));
    const headers = screen.getAllByRole('columnheader').map((header) => header.textContent);
    const row = screen.getByRole('button', { name: 'Save ada@example.com' }).closest('tr')!;
    const cellUnder = (header: string) => row.children[headers.indexOf(header)] as HTMLElement;

    expect(within(cellUnder('Email')).getByLabelText<HTMLInputElement>('Email').value).toBe('ada@example.com');
    expect(within(cellUnder('Name')).getByLabelText<HTMLInputElement>('First name').value).toBe('Ada');
    expect(within(cellUnder('Current Credits')).getByLabelText<HTMLInputElement>('Current credits').value).toBe('12');
    expect(within(cellUnder('Credits Used')).getByLabelText<HTMLInputElement>('Credits used').value).toBe('3');
    expect(within(cellUnder('Status')).getByLabelText<HTMLSelectElement>('Status').value).toBe('active');
    // Lifetime credits are counted from the credits added: shown, not edited.
    expect(within(cellUnder('Lifetime Credits')).queryByRole('spinbutton')).toBeNull();
    expect(within(cellUnder('Lifetime Credits')).getByText('15')).toBeDefined();
    expect(row.children).toHaveLength(headers.length);
  });

  it("sets a user's daily spend cap, and a blank cap sends the default back", async () => {
    const { fetchMock, user } = await renderAdminPage({
      [`PATCH /api/admin/users/${ADA_ID}`]: () => json(200, { message: 'ada@example.com was updated.' }),
    });
    await user.click(screen.getByRole('button', { name: 'Edit ada@example.com' }));
    const cap = screen.getByLabelText<HTMLInputElement>('Daily spend cap');
    expect(cap.value).toBe('');
    expect(cap.placeholder).toBe('Default');
    await user.type(cap, '12.5');
    await user.click(screen.getByRole('button', { name: 'Save ada@example.com' }));
    expect(await findToast('User Updated')).toBeDefined();
    expect(bodyOf(fetchMock, 'PATCH')).toMatchObject({
      dailySpendCap: 12.5,
      original: { dailySpendCap: null },
    });
  });

  it('stays in edit mode and shows the server message when saving fails', async () => {
    const { fetchMock, user } = await renderAdminPage({
      [`PATCH /api/admin/users/${ADA_ID}`]: () =>
        json(409, { code: 'email_taken', message: 'An account with this email already exists' }),
    });

    await user.click(screen.getByRole('button', { name: 'Edit ada@example.com' }));
    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'grace@example.com');
    await user.click(screen.getByRole('button', { name: 'Save ada@example.com' }));

    expect(await findToast('Update Failed')).toBeDefined();
    expect(screen.getAllByText('An account with this email already exists').length).toBeGreaterThan(0);
    expect(bodyOf(fetchMock, 'PATCH')).toMatchObject({ email: 'grace@example.com' });
    expect(screen.getByRole('button', { name: 'Save ada@example.com' })).toBeDefined();
    expect(screen.getByLabelText<HTMLInputElement>('Email').value).toBe('grace@example.com');
  });

  it('leaves edit mode without saving on Cancel', async () => {
    const { fetchMock, user } = await renderAdminPage();

    await user.click(screen.getByRole('button', { name: 'Edit ada@example.com' }));
    await user.type(screen.getByLabelText('First name'), 'bel');
    await user.click(screen.getByRole('button', { name: 'Cancel editing ada@example.com' }));

    expect(screen.getByText('Ada Byron')).toBeDefined();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PATCH')).toBe(false);
  });

  it('asks for confirmation, then deletes the user', async () => {
    let deleted = false;
    const { fetchMock, user } = await renderAdminPage({
      'GET /api/admin/users': () => json(200, deleted ? [ada] : [ada, grace]),
      [`DELETE /api/admin/users/${GRACE_ID}`]: () => {
        deleted = true;
        return json(200, { message: 'grace@example.com and all their data were deleted.' });
      },
    });

    await user.click(screen.getByRole('button', { name: 'Delete grace@example.com' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete User' });
    expect(within(dialog).getByText(adminDeleteConfirmation('grace@example.com'))).toBeDefined();
    const sentence =
      'Are you sure you want to delete user grace@example.com? This action cannot be undone and will permanently delete all their data.';
    expect(within(dialog).getByText(sentence)).toBeDefined();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    expect(await findToast('User Deleted')).toBeDefined();
    expect(screen.getAllByText('grace@example.com and all their data were deleted.').length).toBeGreaterThan(0);
    const deletes = fetchMock.mock.calls.filter(([, init]) => init?.method === 'DELETE');
    expect(deletes.map(([input]) => urlOf(input))).toEqual([`/api/admin/users/${GRACE_ID}`]);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await waitFor(() => expect(screen.queryByText('grace@example.com')).toBeNull());
  });

  it('keeps the user and shows the server message when deleting fails', async () => {
    const { user } = await renderAdminPage({
      [`DELETE /api/admin/users/${GRACE_ID}`]: () =>
        json(409, { code: 'last_admin', message: 'You cannot delete the last administrator' }),
    });

    await user.click(screen.getByRole('button', { name: 'Delete grace@example.com' }));
    const dialog = await screen.findByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    expect(await findToast('Delete Failed')).toBeDefined();
    expect(screen.getAllByText('You cannot delete the last administrator').length).toBeGreaterThan(0);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.getByText('grace@example.com')).toBeDefined();
  });
});

describe('the Admin Dashboard button on the generator', () => {
  it('is shown to administrators', async () => {
    stubApi({ 'GET /api/auth/user': signedInAdmin });
    renderApp('/generator');

    const main = await screen.findByRole('main');
    await within(main).findByRole('heading', { name: 'Create Video' });
    expect(within(main).getByRole('link', { name: 'Admin Dashboard' }).getAttribute('href')).toBe('/admin');
    expect(screen.getAllByRole('link', { name: /Admin Dashboard/ })).toHaveLength(1);
  });

  it('is hidden from other users', async () => {
    stubApi({ 'GET /api/auth/user': () => json(200, createAuthUser()) });
    renderApp('/generator');

    expect(await screen.findByRole('heading', { name: 'Create Video' })).toBeDefined();
    expect(screen.queryByRole('link', { name: /Admin Dashboard/ })).toBeNull();
  });
});
