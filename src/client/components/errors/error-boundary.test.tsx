import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { expectConsoleError } from '../../../../tests/setup/fail-on-console-error';
import { errorReportSchema } from '../../../shared/errors';
import { ErrorBoundary } from './error-boundary';

let shouldThrow = true;

function FlakyWidget() {
  if (shouldThrow) throw new Error('Widget exploded');
  return <p>Widget is fine</p>;
}

function renderFailingTree() {
  // React 19 logs the caught error once (onCaughtError) and the boundary logs it once.
  expectConsoleError(2);
  return render(
    <ErrorBoundary>
      <FlakyWidget />
    </ErrorBoundary>,
  );
}

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  shouldThrow = true;
  fetchMock.mockReset().mockResolvedValue(new Response(null, { status: 202 }));
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('ErrorBoundary', () => {
  it('shows the error screen with a reference id instead of the broken tree', async () => {
    renderFailingTree();

    expect(await screen.findByRole('heading', { name: 'Oops! Something went wrong' })).toBeDefined();
    expect(
      screen.getByText("Don't worry - we've detected and logged the issue. Try one of the options below."),
    ).toBeDefined();
    expect(screen.getByText('Reelsmith')).toBeDefined();
    expect(screen.getByText('VIDEO GENERATOR')).toBeDefined();
    expect(screen.getByText('Error Reference ID')).toBeDefined();
    expect(screen.getByText('Include this ID if you contact support')).toBeDefined();
    expect(screen.getByTestId('error-id').textContent).toMatch(/^err_\d+_[a-z0-9]+$/);
    for (const name of ['Try Again', 'Reload Page', 'Go Home']) {
      expect(screen.getByRole('button', { name: new RegExp(name) })).toBeDefined();
    }
    const support = screen.getByRole('link', { name: /contact support/i });
    expect(support.getAttribute('href')).toMatch(/^mailto:support@reelsmith\.local\?/);
  });

  it('logs the caught error itself exactly once', async () => {
    renderFailingTree();
    await screen.findByText('Error Reference ID');

    const ownLogs = vi
      .mocked(console.error)
      .mock.calls.filter((args) => String(args[0]).startsWith('Caught by the error boundary'));
    expect(ownLogs).toHaveLength(1);
  });

  it('reports the error to the server with the id shown on screen', async () => {
    renderFailingTree();
    const shownId = (await screen.findByTestId('error-id')).textContent;

    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/errors/report');
    expect(init?.method).toBe('POST');
    const report = errorReportSchema.parse(JSON.parse(init?.body as string));
    expect(report).toMatchObject({
      message: 'Widget exploded',
      url: window.location.href,
      userAgent: navigator.userAgent,
      errorId: shownId,
    });
    expect(report.stack).toContain('Widget exploded');
    expect(report.componentStack).toContain('FlakyWidget');
    expect(Number.isNaN(Date.parse(report.timestamp))).toBe(false);
  });

  it('only warns when the report cannot be sent', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    renderFailingTree();

    await waitFor(() => expect(warn).toHaveBeenCalledTimes(1));
    expect(screen.getByText('Error Reference ID')).toBeDefined();
    warn.mockRestore();
  });

  it('renders the children again after Try Again', async () => {
    const user = userEvent.setup();
    renderFailingTree();
    await screen.findByText('Error Reference ID');

    shouldThrow = false;
    await user.click(screen.getByRole('button', { name: /Try Again/ }));

    expect(screen.getByText('Widget is fine')).toBeDefined();
    expect(screen.queryByText('Error Reference ID')).toBeNull();
  });
});
