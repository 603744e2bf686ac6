import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';

import {
  REPORT_CONTACT_REQUIRED_MESSAGE,
  REPORT_RECEIVED_MESSAGE,
  REPORT_STATEMENT_REQUIRED_MESSAGE,
  REPORTED_VIDEO_NOT_FOUND_MESSAGE,
  type ReportReceipt,
  TAKEDOWN_STATEMENT,
} from '../../../shared/safety';
import {
  type ApiRoutes,
  createAuthUser,
  json,
  postedBodies,
  preloadPage,
  renderAppWith,
  resetAfterTest,
  signedOut,
} from '../testing/render-app';

const WATCH_URL = 'https://reelsmith.example/watch/tok_abc123';

const RECEIPT: ReportReceipt = {
  id: 'rep_1',
  dueAt: '2026-11-27T17:00:00.000Z',
  message: REPORT_RECEIVED_MESSAGE,
};

async function openReport(path: string, routes: ApiRoutes = {}) {
  const fetchMock = renderAppWith(path, { 'GET /api/auth/user': signedOut, ...routes });
  await screen.findByRole('heading', { name: 'Report a video', level: 1 }, { timeout: 10_000 });
  return { fetchMock, user: userEvent.setup() };
}

const statementBox = () => screen.queryByRole('checkbox', { name: TAKEDOWN_STATEMENT });

preloadPage(() => import('./report'));
afterEach(resetAfterTest);

describe('the /report page', () => {
  it('says who reads reports and how soon, and names the video from ?video=', async () => {
    await openReport(`/report?video=${encodeURIComponent(WATCH_URL)}`);

    expect(screen.getByText(/read by the people who run this server, and decided within 48 hours/)).toBeDefined();
    expect(screen.getByLabelText<HTMLInputElement>('Link to the video').value).toBe(WATCH_URL);
  });

  it('asks for the takedown statement only for a report about a person shown', async () => {
    const { user } = await openReport('/report');
    expect(statementBox()).toBeNull();

    await user.click(screen.getByRole('radio', { name: 'Graphic violence' }));
    expect(statementBox()).toBeNull();

    await user.click(screen.getByRole('radio', { name: 'An intimate image shared without consent' }));
    expect(statementBox()).not.toBeNull();

    await user.click(screen.getByRole('radio', { name: "A real person's likeness used without consent" }));
    expect(statementBox()).not.toBeNull();

    await user.click(screen.getByRole('radio', { name: 'Something else' }));
    expect(statementBox()).toBeNull();
  });

  it('says what is missing at each field before sending, with focus on the first', async () => {
    const { fetchMock, user } = await openReport('/report');

    await user.click(screen.getByRole('button', { name: 'Send Report' }));

    const video = screen.getByLabelText('Link to the video');
    expect(video.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Paste the link to the video, or its id.')).toBeDefined();
    expect(screen.getByText('Choose what is wrong with the video.')).toBeDefined();
    expect(screen.getByText(REPORT_CONTACT_REQUIRED_MESSAGE)).toBeDefined();
    await waitFor(() => expect(document.activeElement).toBe(video));

    await user.type(video, WATCH_URL);
    await user.click(screen.getByRole('radio', { name: 'An intimate image shared without consent' }));
    await user.type(screen.getByLabelText('Your email'), 'sam@example.com');
    await user.click(screen.getByRole('button', { name: 'Send Report' }));

    expect(screen.getByText(REPORT_STATEMENT_REQUIRED_MESSAGE)).toBeDefined();
    await waitFor(() => expect(document.activeElement).toBe(statementBox()));
    expect(postedBodies(fetchMock, '/api/reports')).toEqual([]);
  });

  it("shows the server's 422 at the statement box", async () => {
    const { user } = await openReport(`/report?video=${encodeURIComponent(WATCH_URL)}`, {
      'POST /api/reports': () => json(422, { code: 'statement_required', message: REPORT_STATEMENT_REQUIRED_MESSAGE }),
    });

    await user.click(screen.getByRole('radio', { name: "A real person's likeness used without consent" }));
    await user.click(statementBox() as HTMLElement);
    await user.type(screen.getByLabelText('Your email'), 'sam@example.com');
    await user.click(screen.getByRole('button', { name: 'Send Report' }));

    expect(await screen.findByText(REPORT_STATEMENT_REQUIRED_MESSAGE)).toBeDefined();
    expect(statementBox()?.getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(statementBox()));
  });

  it('shows a video the server cannot find at the link, and a refusal of anything else above the button', async () => {
    let answer = json(404, { code: 'video_not_found', message: REPORTED_VIDEO_NOT_FOUND_MESSAGE });
    const { user } = await openReport('/report?video=nothing-here', { 'POST /api/reports': () => answer });

    await user.click(screen.getByRole('radio', { name: 'Graphic violence' }));
    await user.type(screen.getByLabelText('Your email'), 'sam@example.com');
    await user.click(screen.getByRole('button', { name: 'Send Report' }));

    expect(await screen.findByText(REPORTED_VIDEO_NOT_FOUND_MESSAGE)).toBeDefined();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Link to the video')));

    answer = json(429, { code: 'too_many_reports', message: 'Too many reports from here. Please try in an hour.' });
    await user.click(screen.getByRole('button', { name: 'Send Report' }));

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Too many reports from here. Please try in an hour.');
    await waitFor(() => expect(document.activeElement).toBe(alert));
    expect(screen.queryByText(REPORTED_VIDEO_NOT_FOUND_MESSAGE)).toBeNull();
  });

  it('sends the report and shows the receipt with the time a decision is due', async () => {
    const { fetchMock, user } = await openReport(`/report?video=${encodeURIComponent(WATCH_URL)}`, {
      'POST /api/reports': () => json(201, RECEIPT),
    });

    await user.click(screen.getByRole('radio', { name: 'An intimate image shared without consent' }));
    await user.click(statementBox() as HTMLElement);
    await user.type(screen.getByLabelText(/What should we know/), 'That is me, filmed without my knowing.');
    await user.type(screen.getByLabelText('Your email'), 'sam@example.com');
    await user.click(screen.getByRole('button', { name: 'Send Report' }));

    const receipt = await screen.findByRole('region', { name: 'Report received' });
    expect(within(receipt).getByText(REPORT_RECEIVED_MESSAGE)).toBeDefined();
    expect(receipt.querySelector('time')?.getAttribute('datetime')).toBe(RECEIPT.dueAt);
    expect(within(receipt).getByText('rep_1')).toBeDefined();
    expect(postedBodies(fetchMock, '/api/reports')).toEqual([
      {
        video: WATCH_URL,
        reason: 'intimate_image',
        description: 'That is me, filmed without my knowing.',
        contact: 'sam@example.com',
        statement: true,
      },
    ]);

    await user.click(within(receipt).getByRole('button', { name: 'Report Another Video' }));
    expect(screen.getByLabelText<HTMLInputElement>('Link to the video').value).toBe('');
  });

  it("uses a signed-in reporter's account email instead of asking for one", async () => {
    const { fetchMock, user } = await openReport('/report?video=video_9', {
      'GET /api/auth/user': () => json(200, createAuthUser({ email: 'maya@example.com' })),
      'POST /api/reports': () => json(201, RECEIPT),
    });

    expect(screen.queryByLabelText('Your email')).toBeNull();
    expect(screen.getByText('maya@example.com')).toBeDefined();
    await user.click(screen.getByRole('radio', { name: 'It copies my work (copyright)' }));
    await user.click(screen.getByRole('button', { name: 'Send Report' }));

    await screen.findByRole('region', { name: 'Report received' });
    expect(postedBodies(fetchMock, '/api/reports')).toEqual([
      { video: 'video_9', reason: 'copyright', description: '', contact: '', statement: false },
    ]);
  });
});
