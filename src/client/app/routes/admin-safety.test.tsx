import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';

import type { SafetyItem, SafetyOverview, SafetyOwner } from '../../../shared/safety';
import {
  callsTo,
  createAuthUser,
  json,
  postedBodies,
  preloadPage,
  renderApp,
  resetAfterTest,
  stubApi,
} from '../testing/render-app';

const HOUR_MS = 3_600_000;
const fromNow = (hours: number) => new Date(Date.now() + hours * HOUR_MS).toISOString();

const owner = (overrides: Partial<SafetyOwner> = {}): SafetyOwner => ({
  id: '3c1f5e2a-7b4d-4e8f-9a0b-1c2d3e4f5a6b',
  email: 'ada@example.com',
  strikes: 1,
  suspended: false,
  videos: 12,
  reports: 3,
  takenDown: 1,
  ...overrides,
});

const item = (overrides: Partial<SafetyItem>): SafetyItem => ({
  id: '0b7f1c1e-6d0a-4b8e-9a57-0c1d2e3f4a51',
  kind: 'report',
  reason: 'intimate_image',
  findings: [],
  stage: null,
  description: 'This is me, and I never agreed to this.',
  reporterContact: 'grace@example.com',
  createdAt: fromNow(-52.5),
  dueAt: fromNow(-4.5),
  video: {
    id: '7d6c5b4a-3f2e-4d1c-8b0a-9f8e7d6c5b4a',
    prompt: 'A woman on a beach at sunset',
    model: 'local',
    createdAt: fromNow(-60),
    videoUrl: '/api/objects/videos/signed.mp4',
    posterUrl: '/api/objects/videos/signed.jpg',
  },
  owner: owner(),
  ...overrides,
});

const overdueReport = item({});
const heldJob = item({
  id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  kind: 'flag',
  reason: null,
  findings: [{ category: 'violence', score: 0.72 }],
  stage: 'output',
  description: '',
  reporterContact: null,
  createdAt: fromNow(-16.5),
  dueAt: fromNow(31.5),
});

const OVERVIEW: SafetyOverview = {
  items: [overdueReport, heldJob],
  stats: {
    open: 2,
    byReason: [
      { reason: 'intimate_image', count: 4 },
      { reason: 'copyright', count: 2 },
    ],
    decided: 9,
    medianDecisionHours: 5.25,
  },
};

const admin = () => json(200, createAuthUser({ isAdmin: true }));

preloadPage(() => import('./admin-safety'));
afterEach(resetAfterTest);

describe('/admin/safety', () => {
  it('lists the open items oldest first with their clocks, words, owner and a blurred video until asked', async () => {
    stubApi({
      'GET /api/auth/user': admin,
      'GET /api/admin/users': () => json(200, []),
      'GET /api/admin/safety': () => json(200, OVERVIEW),
    });
    const user = userEvent.setup();
    renderApp('/admin/safety');
    expect(await screen.findByRole('heading', { name: 'Safety' })).toBeDefined();
    expect(screen.getByRole('link', { name: /Jobs Console/ }).getAttribute('href')).toBe('/admin/jobs');

    const figures = screen.getByRole('region', { name: 'Figures' });
    await waitFor(() => expect(within(figures).getByText('5.3 h')).toBeDefined());
    expect(within(figures).getByText('9')).toBeDefined();
    expect(within(figures).getByText('An intimate image shared without consent').nextSibling?.textContent).toBe('4');

    const [report, flag] = screen.getAllByRole('article');
    if (!report || !flag) throw new Error('expected two items');
    expect(within(report).getByText('Report')).toBeDefined();
    expect(within(report).getByRole('heading', { name: 'An intimate image shared without consent' })).toBeDefined();
    expect(within(report).getByText('Overdue by 4 h').className).toContain('text-destructive');
    expect(within(report).getByText('This is me, and I never agreed to this.')).toBeDefined();
    expect(within(report).getByText('Contact: grace@example.com')).toBeDefined();
    expect(within(report).getByText('A woman on a beach at sunset')).toBeDefined();
    expect(within(report).getByText('ada@example.com')).toBeDefined();
    expect(within(report).getByText('1 strike')).toBeDefined();

    expect(within(flag).getByText('Flagged by screening')).toBeDefined();
    expect(within(flag).getByText('31 h left')).toBeDefined();
    expect(within(flag).getByText(/screening flagged graphic violence \(72%\) in the finished video/)).toBeDefined();

    expect(within(report).getByRole('img', { name: 'The reported video, blurred' }).className).toContain('blur');
    expect(within(report).queryByLabelText('The reported video')).toBeNull();
    await user.click(within(report).getByRole('button', { name: 'Show video' }));
    const video = within(report).getByLabelText('The reported video');
    expect(video.tagName).toBe('VIDEO');
    expect(video.getAttribute('src')).toBe('/api/objects/videos/signed.mp4');
    expect(within(report).queryByRole('img', { name: 'The reported video, blurred' })).toBeNull();
    expect(within(flag).getByRole('img', { name: 'The reported video, blurred' })).toBeDefined();
  });

  it('says when there is nothing to decide', async () => {
    stubApi({
      'GET /api/auth/user': admin,
      'GET /api/admin/users': () => json(200, []),
      'GET /api/admin/safety': () =>
        json(200, { items: [], stats: { open: 0, byReason: [], decided: 0, medianDecisionHours: null } }),
    });
    renderApp('/admin/safety');
    expect(await screen.findByText('Nothing to decide. Reports and flagged videos appear here.')).toBeDefined();
    expect(screen.getByText('none yet')).toBeDefined();
  });

  it('takes a reported video down after a confirmation that says what that removes, with the note', async () => {
    const takeDown = `/api/admin/safety/reports/${overdueReport.id}/take-down`;
    const fetchMock = stubApi({
      'GET /api/auth/user': admin,
      'GET /api/admin/users': () => json(200, []),
      'GET /api/admin/safety': () => json(200, OVERVIEW),
      [`POST ${takeDown}`]: () => json(200, { message: 'Taken down: 1 video removed. The reporter was told.' }),
    });
    const user = userEvent.setup();
    renderApp('/admin/safety');
    await user.click(await screen.findByRole('button', { name: `Take down (report ${overdueReport.id.slice(0, 8)})` }));
    const dialog = await screen.findByRole('alertdialog');
    expect(
      within(dialog).getByText(/removes the video and everything made from it \(extends, remixes\)/),
    ).toBeDefined();
    expect(within(dialog).getByText(/its frames are remembered so it cannot be uploaded again/)).toBeDefined();
    expect(callsTo(fetchMock, takeDown)).toHaveLength(0);
    const loads = callsTo(fetchMock, '/api/admin/safety').length;
    await user.type(within(dialog).getByLabelText(/Note to the reporter/), 'It breaks the policy on intimate images.');
    await user.click(within(dialog).getByRole('button', { name: 'Take down' }));
    expect(await screen.findByText('Taken down: 1 video removed. The reporter was told.')).toBeDefined();
    expect(postedBodies(fetchMock, takeDown)).toEqual([{ note: 'It breaks the policy on intimate images.' }]);
    await waitFor(() => expect(callsTo(fetchMock, '/api/admin/safety').length).toBeGreaterThan(loads));
  });

  it('grants an appeal (a video taken down already cannot be taken down again)', async () => {
    const appeal = item({
      id: '1b7f1c1e-6d0a-4b8e-9a57-0c1d2e3f4a52',
      kind: 'appeal',
      description: 'That is me: I made it.',
    });
    const grant = `/api/admin/safety/reports/${appeal.id}/grant`;
    const fetchMock = stubApi({
      'GET /api/auth/user': admin,
      'GET /api/admin/users': () => json(200, []),
      'GET /api/admin/safety': () => json(200, { ...OVERVIEW, items: [appeal] }),
      [`POST ${grant}`]: () =>
        json(200, { message: 'Granted: the strike was taken back and the account can sign in.' }),
    });
    const user = userEvent.setup();
    renderApp('/admin/safety');
    const card = await screen.findByRole('article');
    expect(within(card).getByText("The owner's appeal")).toBeDefined();
    expect(within(card).queryByRole('button', { name: /Take down/ })).toBeNull();
    await user.click(within(card).getByRole('button', { name: `Grant (appeal ${appeal.id.slice(0, 8)})` }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText(/strike on ada@example.com is taken back/)).toBeDefined();
    await user.click(within(dialog).getByRole('button', { name: 'Grant' }));
    expect(await screen.findByText('Granted: the strike was taken back and the account can sign in.')).toBeDefined();
    expect(postedBodies(fetchMock, grant)).toEqual([{ note: '' }]);
  });

  it("restores a held job through the jobs console's approve route", async () => {
    const approve = `/api/admin/jobs/${heldJob.id}/approve`;
    const fetchMock = stubApi({
      'GET /api/auth/user': admin,
      'GET /api/admin/users': () => json(200, []),
      'GET /api/admin/safety': () => json(200, OVERVIEW),
      [`POST ${approve}`]: () => json(200, { message: 'Approved: the video is shown to its owner.', job: {} }),
    });
    const user = userEvent.setup();
    renderApp('/admin/safety');
    await user.click(await screen.findByRole('button', { name: `Restore (flag ${heldJob.id.slice(0, 8)})` }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText(/The finished video is shown to ada@example.com/)).toBeDefined();
    await user.click(within(dialog).getByRole('button', { name: 'Restore' }));
    expect(await screen.findByText('Approved: the video is shown to its owner.')).toBeDefined();
    expect(callsTo(fetchMock, approve)).toHaveLength(1);
    expect(callsTo(fetchMock, `/api/admin/jobs/${heldJob.id}/reject`)).toHaveLength(0);
  });

  it('suspends the owner after a confirmation, and offers Unsuspend for a suspended owner', async () => {
    const suspended = item({ id: 'c0ffee00-0000-4000-8000-000000000001', owner: owner({ suspended: true }) });
    const suspend = `/api/admin/safety/users/${owner().id}/suspend`;
    const fetchMock = stubApi({
      'GET /api/auth/user': admin,
      'GET /api/admin/users': () => json(200, []),
      'GET /api/admin/safety': () => json(200, { ...OVERVIEW, items: [overdueReport, suspended] }),
      [`POST ${suspend}`]: () => json(200, { message: 'ada@example.com is suspended.' }),
    });
    const user = userEvent.setup();
    renderApp('/admin/safety');
    const [report, other] = await screen.findAllByRole('article');
    if (!report || !other) throw new Error('expected two items');
    expect(within(other).getByText('Suspended')).toBeDefined();
    expect(within(other).getByRole('button', { name: 'Unsuspend ada@example.com' })).toBeDefined();
    await user.click(within(report).getByRole('button', { name: 'Suspend ada@example.com' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText(/cannot sign in or make videos/)).toBeDefined();
    await user.click(within(dialog).getByRole('button', { name: 'Suspend' }));
    expect(await screen.findByText('ada@example.com is suspended.')).toBeDefined();
    expect(callsTo(fetchMock, suspend)).toHaveLength(1);
  });
});
