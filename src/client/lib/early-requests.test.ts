import { afterEach, describe, expect, it, vi } from 'vitest';

import { apiRequest, getJsonWithEtag } from './api-client';
import { beginEarlyGets, dropEarlyGets } from './early-requests';

function jsonResponse(body: unknown): Response {
  return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
}

/** A fetch that answers each call with the call's number, so a test sees which answer it got. */
function stubCountingFetch() {
  let calls = 0;
  const fetchMock = vi.fn<typeof fetch>().mockImplementation(async () => jsonResponse({ call: (calls += 1) }));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => {
  dropEarlyGets();
  vi.unstubAllGlobals();
});

describe('early GETs', () => {
  it('are sent once with cookies and taken by the first GET of the same address, the next one asks again', async () => {
    const fetchMock = stubCountingFetch();
    beginEarlyGets(['/api/models']);
    beginEarlyGets(['/api/models']);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock).toHaveBeenCalledWith('/api/models', { credentials: 'include', cache: 'no-store' });

    expect(await (await apiRequest('GET', '/api/models')).json()).toEqual({ call: 1 });
    expect(await (await apiRequest('GET', '/api/models')).json()).toEqual({ call: 2 });
  });

  it('answer the first GET with an ETag too', async () => {
    stubCountingFetch();
    beginEarlyGets(['/api/user/balance']);

    expect(await getJsonWithEtag('/api/user/balance')).toEqual({ call: 1 });
  });

  it('are never used once dropped, nor for another address or a call that is not a GET', async () => {
    const fetchMock = stubCountingFetch();
    beginEarlyGets(['/api/models', '/api/files/cleanup']);

    expect(await (await apiRequest('POST', '/api/files/cleanup')).json()).toEqual({ call: 3 });
    dropEarlyGets();
    expect(await (await apiRequest('GET', '/api/models')).json()).toEqual({ call: 4 });
    expect(fetchMock).toHaveBeenCalledTimes(4);
  });
});
