import { configure, fireEvent } from '@testing-library/dom';
import { afterEach, beforeAll, beforeEach } from 'vitest';
import { COMPLETED_TOURS_KEY } from '../../src/client/features/onboarding/tour-storage';

// findBy* and waitFor wait for what they look for, never a fixed time; their default limit of one
// second was seen too short for a page whose code loads on demand while the server tests fill both
// cores of a CI machine. A thing that never appears still fails, after 10 seconds.
configure({ asyncUtilTimeout: 10_000 });

// The onboarding tours open a second after a page mounts (driver.js, which covers the page and takes
// its clicks): a test slowed past that second by a busy machine would find its buttons covered. They
// are done here, as for a returning user; the browser journeys (e2e/tours-pwa.spec.ts) test the tours.
beforeEach(() => {
  window.localStorage.setItem(COMPLETED_TOURS_KEY, JSON.stringify(['first-time', 'generator']));
});

// Most client files share their worker (isolate: false in vitest.config.ts), and with it the
// document's storage: each file starts with none, as a fresh page would.
beforeAll(() => {
  window.localStorage.clear();
  window.sessionStorage.clear();
});

// A tour lives outside React: one that started during a test (a test that clears local storage, with
// a user who has not done the tours, running past the tour's delay) stays on screen after the page
// unmounts, and in a shared worker covers the next file's page and refuses its tours. It is closed
// here, and the test that left it fails with the reason.
afterEach(async () => {
  if (!document.querySelector('.driver-popover')) return;
  const { isTourRunning } = await import('../../src/client/features/onboarding/run-tour');
  if (!isTourRunning()) return; // closing: its popover fades out
  fireEvent.keyUp(window, { key: 'Escape' });
  throw new Error(
    'A tour started during this test and was still on screen: give the signed-in user done tours (createAuthUser does) unless the test is about them',
  );
});
