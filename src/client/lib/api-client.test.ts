import { afterEach, describe, expect, it, vi } from 'vitest';

import { ApiError, apiRequest, getQueryFn } from './api-client';

function stubFetch(response: Response) {
  const fetchMock = vi.fn<typeof fetch>().mockResolvedValue(response);
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function jsonResponse(status: number, body: unknown, statusText = ''): Response {
  return new Response(JSON.stringify(body), { status, statusText, headers: { 'Content-Type': 'application/json' } });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('apiRequest', () => {
  it('sends a JSON body with cookies', async () => {
    const fetchMock = stubFetch(jsonResponse(201, { id: 'u1' }));

    const response = await apiRequest('POST', '/api/auth/register', { email: 'a@b.co' });

    expect(response.status).toBe(201);
    expect(fetchMock).toHaveBeenCalledWith('/api/auth/register', {
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'a@b.co' }),
    });
  });

  it('turns a non-OK answer into "{status}: {body}" with the server code and message', async () => {
    const body = { code: 'email_taken', message: 'An account with this email already exists' };
    stubFetch(jsonResponse(409, body, 'Conflict'));

    const error = await apiRequest('POST', '/api/auth/register', {}).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    expect(apiError.message).toBe(`409: ${JSON.stringify(body)}`);
    expect(apiError.status).toBe(409);
    expect(apiError.code).toBe('email_taken');
    expect(apiError.serverMessage).toBe('An account with this email already exists');
  });

  it('uses the status text when the body is empty and has no server message', async () => {
    stubFetch(new Response(null, { status: 502, statusText: 'Bad Gateway' }));

    const error = (await apiRequest('GET', '/api/user/status').catch((e: unknown) => e)) as ApiError;

    expect(error.message).toBe('502: Bad Gateway');
    expect(error.code).toBeNull();
    expect(error.serverMessage).toBeNull();
  });

  it('keeps a plain-text body as the message without a server message', async () => {
    stubFetch(new Response('upstream down', { status: 500, statusText: 'Internal Server Error' }));

    const error = (await apiRequest('GET', '/api/x').catch((e: unknown) => e)) as ApiError;

    expect(error.message).toBe('500: upstream down');
    expect(error.serverMessage).toBeNull();
  });
});

describe('getQueryFn', () => {
  const context = (url: string) =>
    ({ queryKey: [url], signal: new AbortController().signal, meta: undefined }) as unknown as Parameters<
      ReturnType<typeof getQueryFn>
    >[0];

  it('returns null for a 401 when asked to', async () => {
    stubFetch(jsonResponse(401, { code: 'unauthorized', message: 'Sign in first' }));

    await expect(getQueryFn({ on401: 'returnNull' })(context('/api/auth/user'))).resolves.toBeNull();
  });

  it('throws an ApiError for a 401 otherwise', async () => {
    stubFetch(jsonResponse(401, { code: 'unauthorized', message: 'Sign in first' }));

    await expect(getQueryFn({ on401: 'throw' })(context('/api/user/status'))).rejects.toMatchObject({
      status: 401,
      serverMessage: 'Sign in first',
    });
  });
});
