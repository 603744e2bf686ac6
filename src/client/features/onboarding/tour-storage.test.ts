import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { COMPLETED_TOURS_KEY, isTourDone, markTourCompleted } from './tour-storage';

// Issue 45: a tour is done when this browser or the account says so, and finishing one tells both.
// The client tests' defaults mark every tour done in local storage: these start from none.
beforeEach(() => localStorage.removeItem(COMPLETED_TOURS_KEY));
afterEach(() => {
  localStorage.clear();
  vi.unstubAllGlobals();
});

describe('completed tours, per browser and per account', () => {
  it('counts a tour the account finished on another device, with nothing stored here', () => {
    expect(isTourDone('first-time', ['first-time'])).toBe(true);
    expect(isTourDone('generator', ['first-time'])).toBe(false);
    expect(isTourDone('generator', undefined)).toBe(false);
  });

  it('remembers a finished tour in this browser and sends it to the account', async () => {
    const fetchMock = vi.fn<typeof fetch>(async () => new Response('{"completedTours":["generator"]}'));
    vi.stubGlobal('fetch', fetchMock);
    markTourCompleted('generator');
    expect(JSON.parse(localStorage.getItem(COMPLETED_TOURS_KEY) ?? '[]')).toEqual(['generator']);
    expect(isTourDone('generator', [])).toBe(true);
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(typeof url === 'string' ? url : '').toMatch(/\/api\/account\/tours\/generator$/);
    expect(init?.method).toBe('PUT');
  });

  it('still remembers it here when the server cannot be reached (signed out, offline)', async () => {
    const fetchMock = vi.fn<typeof fetch>(async () => {
      throw new TypeError('Failed to fetch');
    });
    vi.stubGlobal('fetch', fetchMock);
    markTourCompleted('first-time');
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalled());
    expect(isTourDone('first-time', undefined)).toBe(true);
  });
});
