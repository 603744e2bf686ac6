import type { QueryFunction } from '@tanstack/react-query';

import { takeEarlyGet } from './early-requests';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * A non-OK answer from the API. `message` follows the spec: "{status}: {body text or status text}".
 * `code` and `serverMessage` come from the JSON error body `{ code, message }` when there is one.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | null;
  readonly serverMessage: string | null;

  constructor(status: number, statusText: string, bodyText: string) {
    super(`${status}: ${bodyText || statusText}`);
    this.name = 'ApiError';
    this.status = status;
    const body = parseErrorBody(bodyText);
    this.code = body.code;
    this.serverMessage = body.message;
  }
}

function parseErrorBody(bodyText: string): { code: string | null; message: string | null } {
  try {
    const body: unknown = JSON.parse(bodyText);
    if (typeof body !== 'object' || body === null) return { code: null, message: null };
    const { code, message } = body as Record<string, unknown>;
    return {
      code: typeof code === 'string' ? code : null,
      message: typeof message === 'string' && message ? message : null,
    };
  } catch {
    return { code: null, message: null };
  }
}

/** The server's own sentence for a failed call, when it gave one. */
export function getServerMessage(error: unknown): string | null {
  return error instanceof ApiError ? error.serverMessage : null;
}

export async function throwIfNotOk(response: Response): Promise<void> {
  if (response.ok) return;
  const bodyText = await response.text().catch(() => '');
  throw new ApiError(response.status, response.statusText, bodyText);
}

/** Calls the API with cookies and a JSON body; any non-OK answer throws an ApiError. */
export async function apiRequest(method: HttpMethod, url: string, body?: unknown): Promise<Response> {
  // A GET the entry already started for the first page (lib/early-requests.ts) is not sent again.
  const early = method === 'GET' ? takeEarlyGet(url) : undefined;
  const response = await (early ??
    fetch(url, {
      method,
      credentials: 'include',
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }));
  await throwIfNotOk(response);
  return response;
}

/** Last answers of polled lists, kept in memory only (answers are no-store), by URL. */
const lastAnswers = new Map<string, { etag: string; body: unknown }>();

/**
 * GET with If-None-Match: the server answers 304 without building the body when nothing changed
 * since the answer kept here (its ETag names the user, so another user's tag never matches).
 */
export async function getJsonWithEtag(url: string, signal?: AbortSignal): Promise<unknown> {
  const last = lastAnswers.get(url);
  // The entry's early GET (lib/early-requests.ts) is the first answer; it had nothing to compare with.
  const early = last ? undefined : takeEarlyGet(url);
  const response = await (early ??
    fetch(url, {
      credentials: 'include',
      cache: 'no-store',
      signal,
      headers: last ? { 'If-None-Match': last.etag } : {},
    }));
  if (response.status === 304 && last) return last.body;
  await throwIfNotOk(response);
  const body: unknown = await response.json();
  const etag = response.headers.get('etag');
  if (etag) lastAnswers.set(url, { etag, body });
  else lastAnswers.delete(url);
  return body;
}

export type UnauthorizedBehavior = 'returnNull' | 'throw';

/** A query function for queries keyed by their URL, e.g. `['/api/user/status']`. */
export function getQueryFn({ on401 }: { on401: UnauthorizedBehavior }): QueryFunction<unknown> {
  return async ({ queryKey, signal }) => {
    const url = queryKey[0];
    if (typeof url !== 'string') throw new Error('The first query key must be the URL');
    const response = await fetch(url, { credentials: 'include', signal });
    if (on401 === 'returnNull' && response.status === 401) return null;
    await throwIfNotOk(response);
    return response.json() as Promise<unknown>;
  };
}
