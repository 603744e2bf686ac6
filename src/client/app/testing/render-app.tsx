import { render, type RenderResult } from '@testing-library/react';
import { StrictMode } from 'react';
import { vi } from 'vitest';

import type { AuthUser } from '../../../shared/auth';
import { createQueryClient } from '../../lib/query-client';
import { AppProviders } from '../providers';
import { AppRouter } from '../router';

/** Answers for `"{METHOD} {path}"`; anything else answers 404 like the server would. */
export type ApiRoutes = Record<string, () => Response>;

export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

export const signedOut = (): Response => json(401, { code: 'unauthorized', message: 'Not signed in' });

export function createAuthUser(overrides: Partial<AuthUser> = {}): AuthUser {
  return {
    id: 'user_1',
    email: 'maya@example.com',
    firstName: 'Maya',
    lastName: 'Thompson',
    displayName: 'Maya Thompson',
    isAdmin: false,
    plan: 'JUST_FOR_FUN',
    subscriptionStatus: 'inactive',
    createdAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** Replaces fetch with a stub that answers real Response objects from `routes`. */
export function stubApi(routes: ApiRoutes) {
  const fetchMock = vi.fn<typeof fetch>(async (input, init) => {
    const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const url = new URL(href, window.location.origin);
    const answer = routes[`${init?.method ?? 'GET'} ${url.pathname}`];
    return answer ? answer() : json(404, { code: 'not_found', message: 'Not found' });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** Renders the whole app (real providers and router, StrictMode) at `path` in the browser location. */
export function renderApp(path: string): RenderResult {
  window.history.replaceState(null, '', path);
  return render(
    <StrictMode>
      <AppProviders queryClient={createQueryClient()}>
        <AppRouter />
      </AppProviders>
    </StrictMode>,
  );
}
