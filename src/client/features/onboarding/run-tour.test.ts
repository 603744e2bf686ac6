import { fireEvent, screen, waitFor } from '@testing-library/dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { isTourRunning, runTour } from './run-tour';
import { COMPLETED_TOURS_KEY, isTourCompleted } from './tour-storage';

// The real driver.js in jsdom, with the browser's local storage: a tour closed the instant it appears
// (before driver.js's 400 ms highlight animation ends, when it would not call onDestroyed) is recorded.
beforeEach(() => {
  localStorage.removeItem(COMPLETED_TOURS_KEY);
  document.body.innerHTML =
    '<main><h1>Video Dashboard</h1><a data-tour="nav-create" href="/generator">Create</a></main>';
});
afterEach(() => {
  document.body.innerHTML = '';
  localStorage.clear();
});

async function expectClosedAndRecorded() {
  await waitFor(() => expect(document.querySelector('.driver-popover')).toBeNull());
  expect(isTourCompleted('first-time')).toBe(true);
  expect(isTourRunning()).toBe(false);
  // A later page load starts nothing: the record is in local storage, where the tours look.
  expect(JSON.parse(localStorage.getItem(COMPLETED_TOURS_KEY) ?? '[]')).toEqual(['first-time']);
}

describe('a tour closed at 0 ms', () => {
  it('is recorded when Escape closes it', async () => {
    expect(runTour('first-time')).toBe(true);
    fireEvent.keyUp(window, { key: 'Escape' });
    await expectClosedAndRecorded();
  });

  it('is recorded when Skip Tour closes it', async () => {
    runTour('first-time');
    fireEvent.click(screen.getByRole('button', { name: 'Skip Tour' }));
    await expectClosedAndRecorded();
  });

  it('is recorded when the close cross closes it, and the cross is labelled', async () => {
    runTour('first-time');
    fireEvent.click(screen.getByRole('button', { name: 'Close tour' }));
    await expectClosedAndRecorded();
  });

  it('is recorded when a click on the overlay closes it', async () => {
    runTour('first-time');
    // driver.js draws its overlay on the first animation frame, well inside the 400 ms.
    const overlayPath = await waitFor(() => {
      const path = document.querySelector('.driver-overlay path');
      if (!path) throw new Error('no overlay yet');
      return path;
    });
    fireEvent.click(overlayPath);
    await expectClosedAndRecorded();
  });

  it('lets the next tour run once it is closed', async () => {
    runTour('first-time');
    fireEvent.keyUp(window, { key: 'Escape' });
    await expectClosedAndRecorded();
    expect(runTour('generator')).toBe(true);
    fireEvent.keyUp(window, { key: 'Escape' });
    await waitFor(() => expect(isTourCompleted('generator')).toBe(true));
  });
});
