import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';

import type { OwnTakedown } from '../../shared/safety';
import {
  type ApiRoutes,
  balance,
  createAuthUser,
  json,
  postedBodies,
  preloadPage,
  renderAppWith,
  resetAfterTest,
} from './testing/render-app';

const TAKEDOWN: OwnTakedown = {
  reportId: 'rep_7',
  reason: 'likeness',
  prompt: 'A senator dancing on a table',
  takenDownAt: '2026-11-25T09:00:00.000Z',
  note: 'The person shown asked us to remove it.',
  appeal: null,
};

const APPEAL_SENT = 'Your appeal was sent. An administrator will decide within 48 hours.';

function renderSignedIn(takedowns: () => OwnTakedown[], overrides: ApiRoutes = {}) {
  return renderAppWith('/credits', {
    'GET /api/auth/user': () => json(200, createAuthUser()),
    'GET /api/user/balance': () => balance(),
    'GET /api/payments/config': () => json(200, { enabled: false, publishableKey: null }),
    'GET /api/safety/takedowns': () => json(200, takedowns()),
    ...overrides,
  });
}

const banner = () => screen.findByRole('region', { name: 'Video taken down' }, { timeout: 10_000 });

preloadPage(() => import('./routes/credits'));
preloadPage(() => import('./signed-in-extras'));
afterEach(() => {
  resetAfterTest();
  sessionStorage.clear();
});

describe('the takedown banner', () => {
  it('says which video was taken down and why, with the note, and sends one appeal', async () => {
    let takedown = TAKEDOWN;
    const fetchMock = renderSignedIn(() => [takedown], {
      'POST /api/safety/takedowns/rep_7/appeal': () => {
        takedown = { ...TAKEDOWN, appeal: { status: 'open', createdAt: '2026-11-25T10:00:00.000Z' } };
        return json(201, { message: APPEAL_SENT });
      },
    });
    const user = userEvent.setup();

    const shown = await banner();
    expect(shown.textContent).toContain(
      "A video of yours was taken down: A real person's likeness used without consent",
    );
    expect(shown.textContent).toContain('A senator dancing on a table');
    expect(shown.textContent).toContain('The person shown asked us to remove it.');

    await user.click(within(shown).getByRole('button', { name: 'Appeal' }));
    const dialog = await screen.findByRole('dialog', { name: 'Appeal the takedown' });
    await user.click(within(dialog).getByRole('button', { name: 'Send Appeal' }));
    expect(within(dialog).getByText('Say why the video should not have been taken down.')).toBeDefined();
    expect(postedBodies(fetchMock, '/api/safety/takedowns/rep_7/appeal')).toEqual([]);

    await user.type(within(dialog).getByRole('textbox'), 'It is a parody, and labelled as one.');
    await user.click(within(dialog).getByRole('button', { name: 'Send Appeal' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await within(shown).findByText(APPEAL_SENT)).toBeDefined();
    await waitFor(() => expect(within(shown).queryByRole('button', { name: 'Appeal' })).toBeNull());
    expect(postedBodies(fetchMock, '/api/safety/takedowns/rep_7/appeal')).toEqual([
      { message: 'It is a parody, and labelled as one.' },
    ]);
  });

  it('offers no second appeal, and says where the first one stands', async () => {
    renderSignedIn(() => [{ ...TAKEDOWN, appeal: { status: 'open', createdAt: '2026-11-25T10:00:00.000Z' } }]);

    const shown = await banner();
    expect(within(shown).getByText(APPEAL_SENT)).toBeDefined();
    expect(within(shown).queryByRole('button', { name: 'Appeal' })).toBeNull();
  });

  it("shows the server's refusal of an appeal in the dialog", async () => {
    renderSignedIn(() => [TAKEDOWN], {
      'POST /api/safety/takedowns/rep_7/appeal': () =>
        json(409, { code: 'already_appealed', message: 'You have already appealed this takedown.' }),
    });
    const user = userEvent.setup();

    await user.click(within(await banner()).getByRole('button', { name: 'Appeal' }));
    const dialog = await screen.findByRole('dialog', { name: 'Appeal the takedown' });
    await user.type(within(dialog).getByRole('textbox'), 'Please look again.');
    await user.click(within(dialog).getByRole('button', { name: 'Send Appeal' }));

    expect((await within(dialog).findByRole('alert')).textContent).toBe('You have already appealed this takedown.');
  });

  it('is dismissed one takedown at a time, for the session', async () => {
    const older = {
      ...TAKEDOWN,
      reportId: 'rep_3',
      reason: 'violence' as const,
      takenDownAt: '2026-11-20T09:00:00.000Z',
    };
    renderSignedIn(() => [older, TAKEDOWN]);
    const user = userEvent.setup();

    const newest = await banner();
    expect(newest.textContent).toContain("A real person's likeness used without consent");
    await user.click(within(newest).getByRole('button', { name: 'Dismiss' }));

    const next = await banner();
    expect(next.textContent).toContain('Graphic violence');
    await user.click(within(next).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Video taken down' })).toBeNull());
    expect(JSON.parse(sessionStorage.getItem('reelsmith:dismissed-takedowns') ?? '[]')).toEqual(['rep_7', 'rep_3']);
  });

  it('is not shown when no video of theirs was taken down', async () => {
    renderSignedIn(() => []);
    await screen.findByRole('navigation', { name: 'Account' });
    expect(screen.queryByRole('region', { name: 'Video taken down' })).toBeNull();
  });
});
