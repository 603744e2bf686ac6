import { configure } from '@testing-library/dom';
import { beforeAll, beforeEach } from 'vitest';
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
