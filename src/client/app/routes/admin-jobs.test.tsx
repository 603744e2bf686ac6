import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';

import type { AdminJob, AdminJobsOverview } from '../../../shared/admin-jobs';
import { callsTo, createAuthUser, json, renderApp, resetAfterTest, stubApi } from '../testing/render-app';

const job = (overrides: Partial<AdminJob>): AdminJob => ({
  id: '0b7f1c1e-6d0a-4b8e-9a57-0c1d2e3f4a51',
  userId: 'user_2',
  userEmail: 'ada@example.com',
  model: 'fal-wan-2.2',
  status: 'failed',
  prompt: 'A lighthouse at dusk',
  attempts: 3,
  worker: null,
  progress: 0,
  stage: 'Failed',
  errorMessage: 'fal.ai is busy right now. Please try again later.',
  paidWith: 'credits',
  creditsCharged: 1,
  refunded: false,
  createdAt: '2026-11-25T08:00:00.000Z',
  startedAt: '2026-11-25T08:00:01.000Z',
  completedAt: null,
  heldForReview: null,
  rerunId: null,
  ...overrides,
});

const running = job({
  id: '5e2d9c8b-1a3f-4c6d-8e9f-a0b1c2d3e4f5',
  status: 'processing',
  attempts: 2,
  worker: 'host-a:41:ab12cd34',
  progress: 40,
  stage: 'Rendering',
  errorMessage: null,
  userEmail: 'grace@example.com',
});
const failed = job({});

const OVERVIEW: AdminJobsOverview = {
  queue: { pending: 4, processing: 1, oldestWaitSeconds: 125 },
  running: [running],
  held: [],
  failures: [{ model: 'fal-wan-2.2', reason: failed.errorMessage ?? '', count: 3, lastAt: '2026-11-25T08:00:00.000Z' }],
  jobs: [running, failed],
  models: ['local', 'fal-wan-2.2'],
};

afterEach(resetAfterTest);

describe('/admin/jobs', () => {
  it('shows the queue, the running job with its worker and attempt, and the day’s failures', async () => {
    stubApi({
      'GET /api/auth/user': () => json(200, createAuthUser({ isAdmin: true })),
      'GET /api/admin/users': () => json(200, []),
      'GET /api/admin/jobs': () => json(200, OVERVIEW),
    });
    renderApp('/admin/jobs');
    expect(await screen.findByRole('heading', { name: 'Jobs Console' })).toBeDefined();
    const queue = await screen.findByRole('region', { name: 'Queue' });
    await waitFor(() => expect(within(queue).getByText('2 min')).toBeDefined());
    expect(within(queue).getByText('4')).toBeDefined();
    expect(screen.getAllByText(/Attempt 2 on host-a:41:ab12cd34/)).toHaveLength(2);
    expect(screen.getByText('3×')).toBeDefined();
  });

  it('offers Re-run once: a failed job re-run already says so instead', async () => {
    const rerun = job({ id: '9c1d2e3f-4a5b-4c6d-8e7f-a0b1c2d3e4f5', rerunId: '1f2e3d4c-5b6a-4978-8a9b-c0d1e2f3a4b5' });
    stubApi({
      'GET /api/auth/user': () => json(200, createAuthUser({ isAdmin: true })),
      'GET /api/admin/users': () => json(200, []),
      'GET /api/admin/jobs': () => json(200, { ...OVERVIEW, jobs: [failed, rerun] }),
    });
    renderApp('/admin/jobs');
    const rerunOf = (id: string) =>
      screen.queryAllByRole('button', { name: `Re-run job ${id.slice(0, 8)} of ada@example.com` });
    await waitFor(() => expect(rerunOf(failed.id)).toHaveLength(1));
    expect(rerunOf(rerun.id)).toHaveLength(0);
    expect(screen.getAllByText(/re-run made/)).toHaveLength(1);
  });

  it('sends the filters to the server and refunds a failed job after a confirmation', async () => {
    const fetchMock = stubApi({
      'GET /api/auth/user': () => json(200, createAuthUser({ isAdmin: true })),
      'GET /api/admin/users': () => json(200, []),
      'GET /api/admin/jobs': () => json(200, OVERVIEW),
      [`POST /api/admin/jobs/${failed.id}/refund`]: () =>
        json(200, { message: 'Refunded. Your 1 credit was refunded.', job: { ...failed, refunded: true } }),
    });
    const user = userEvent.setup();
    renderApp('/admin/jobs');
    await user.selectOptions(await screen.findByLabelText('Status'), 'failed');
    await user.selectOptions(screen.getByLabelText('Model'), 'fal-wan-2.2');
    const queries = () =>
      callsTo(fetchMock, '/api/admin/jobs').map(
        ([input]) =>
          new URL(
            typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
            window.location.origin,
          ).searchParams,
      );
    await waitFor(() =>
      expect(queries().some((query) => query.get('status') === 'failed' && query.get('model') === 'fal-wan-2.2')).toBe(
        true,
      ),
    );
    await user.click(screen.getByRole('button', { name: `Refund job ${failed.id.slice(0, 8)} of ada@example.com` }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText(/\(1 credit\) goes back to ada@example.com/)).toBeDefined();
    expect(callsTo(fetchMock, `/api/admin/jobs/${failed.id}/refund`)).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Refund' }));
    expect(await screen.findByText('Refunded. Your 1 credit was refunded.')).toBeDefined();
    expect(callsTo(fetchMock, `/api/admin/jobs/${failed.id}/refund`)).toHaveLength(1);
  });

  it('lists jobs held for review with what was flagged, and approves one after a confirmation', async () => {
    const held = job({
      id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
      status: 'pending',
      stage: 'Held for review',
      attempts: 0,
      errorMessage: null,
      prompt: 'A woman in lingerie by the window',
      heldForReview: {
        findings: [{ category: 'sexual', score: 0.5 }],
        heldAt: '2026-11-25T08:00:00.000Z',
        stage: 'description',
        video: null,
        poster: null,
      },
    });
    const fetchMock = stubApi({
      'GET /api/auth/user': () => json(200, createAuthUser({ isAdmin: true })),
      'GET /api/admin/users': () => json(200, []),
      'GET /api/admin/jobs': () => json(200, { ...OVERVIEW, held: [held] }),
      [`POST /api/admin/jobs/${held.id}/approve`]: () =>
        json(200, { message: 'Approved: the job is in the queue.', job: { ...held, heldForReview: null } }),
    });
    const user = userEvent.setup();
    renderApp('/admin/jobs');
    expect(await screen.findByText('Held for review')).toBeDefined();
    expect(screen.getByText(/screening flagged sexual content \(50%\)/)).toBeDefined();
    expect(screen.getByRole('button', { name: `Reject job ${held.id.slice(0, 8)} of ada@example.com` })).toBeDefined();
    await user.click(screen.getByRole('button', { name: `Approve job ${held.id.slice(0, 8)} of ada@example.com` }));
    const dialog = await screen.findByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Approved: the job is in the queue.')).toBeDefined();
    expect(callsTo(fetchMock, `/api/admin/jobs/${held.id}/approve`)).toHaveLength(1);
  });
});
