import { cleanup, render, type RenderResult, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode } from 'react';
import { beforeAll, expect, vi } from 'vitest';

import type { AuthUser, UserStatus } from '../../../shared/auth';
import type { CreatedGenerationRecord } from '../../../shared/generations';
import type { GenerationStatus } from '../../../shared/money/plans';
import { dismissToast } from '../../components/ui/use-toast';
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
    emailVerifiedAt: '2026-01-01T00:00:00.000Z',
    firstName: 'Maya',
    lastName: 'Thompson',
    displayName: 'Maya Thompson',
    isAdmin: false,
    plan: 'JUST_FOR_FUN',
    subscriptionStatus: 'inactive',
    createdAt: '2025-01-01T00:00:00.000Z',
    // A returning person: both tours seen. Otherwise the first-time tour starts 2 s after sign-in, in
    // the middle of any test that runs longer on a busy machine, and its dialog covers the page and
    // (the client files share their modules) keeps running into the next file. A test of the tours
    // passes `completedTours: []`.
    completedTours: ['first-time', 'generator'],
    ...overrides,
  };
}

/** The answer to Generate (POST /api/video-generation): one waiting video on the local engine, unless the overrides say otherwise. */
export function createGenerationAnswer(overrides: Partial<CreatedGenerationRecord> = {}): CreatedGenerationRecord {
  return {
    id: 'gen-1',
    prompt: 'A fox in the snow',
    status: 'pending',
    creditsUsed: 1,
    duration: 10,
    model: 'local',
    hasAudio: false,
    outputVideoUrl: null,
    posterUrl: null,
    watchPath: null,
    createdAt: new Date().toISOString(),
    expiresAt: null,
    progress: 0,
    progressStage: null,
    errorMessage: null,
    group: [],
    ...overrides,
  };
}

/**
 * GET /api/user/balance's answer (the one balance request the app makes): a user with no credits,
 * no subscription and no extra generations, unless the overrides say otherwise.
 */
export function balance(status: Partial<UserStatus> = {}, generationStatus: Partial<GenerationStatus> = {}): Response {
  return json(200, {
    status: { availableCredits: 0, isUnlimited: false, plan: 'JUST_FOR_FUN', planName: 'Credits', ...status },
    generationStatus: {
      dailyUsed: 0,
      dailyLimit: 15,
      extraRemaining: 0,
      subscriptionStatus: 'inactive',
      canGenerate: false,
      ...generationStatus,
    },
  });
}

/** The path a fetch was called with. */
export function pathOf(input: RequestInfo | URL): string {
  const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  return new URL(href, window.location.origin).pathname;
}

/** Replaces fetch with a stub that answers real Response objects from `routes`. */
export function stubApi(routes: ApiRoutes) {
  const fetchMock = vi.fn<typeof fetch>(async (input, init) => {
    const answer = routes[`${init?.method ?? 'GET'} ${pathOf(input)}`];
    return answer ? answer() : json(404, { code: 'not_found', message: 'Not found' });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

type FetchMock = ReturnType<typeof stubApi>;

/** Stubs the API with `routes`, then renders the app at `path`; returns the fetch stub. */
export function renderAppWith(path: string, routes: ApiRoutes): FetchMock {
  const fetchMock = stubApi(routes);
  renderApp(path);
  return fetchMock;
}

/** The calls of a stubbed fetch to this path, any method. */
export function callsTo(fetchMock: FetchMock, path: string) {
  return fetchMock.mock.calls.filter(([input]) => pathOf(input) === path);
}

/** Leaves every call to this path unanswered, to see what a screen shows while it waits. */
export function holdRequests(fetchMock: FetchMock, path: string): void {
  const answer = fetchMock.getMockImplementation();
  if (!answer) throw new Error('holdRequests needs a stubbed fetch');
  fetchMock.mockImplementation((input, init) =>
    pathOf(input) === path ? new Promise<Response>(() => {}) : answer(input, init),
  );
}

/** The JSON bodies POSTed to this path, in order (undefined for a POST without a body). */
export function postedBodies(fetchMock: FetchMock, path: string): unknown[] {
  return callsTo(fetchMock, path)
    .filter(([, init]) => init?.method === 'POST')
    .map(([, init]) => (typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined));
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

/** After each test: unmount, close the toasts, and put fetch and any other stubbed global back. */
export function resetAfterTest(): void {
  cleanup();
  dismissToast();
  vi.unstubAllGlobals();
}

/**
 * The router loads pages lazily, and the first test of a file would otherwise wait on the page's
 * transform (slow under a parallel run): load it before the file's tests.
 */
export function preloadPage(load: () => Promise<unknown>): void {
  beforeAll(async () => {
    await load();
  });
}

/** The button with this name, once it is enabled (a payment form's button waits for Stripe's element). */
export async function findEnabledButton(name: string): Promise<HTMLElement> {
  const button = await screen.findByRole('button', { name });
  await waitFor(() => expect(button.hasAttribute('disabled')).toBe(false));
  return button;
}

/**
 * Puts `text` at the end of a text field the way a paste does: a click to focus it, then one input
 * event with the whole text. `userEvent.type` sends a key press per character, and each re-renders
 * the page: on the generator that is half of a test's time. Keep `type` where the key presses are
 * what a test is about (Enter, one edit, what shows while typing).
 */
export async function enterText(field: HTMLElement, text: string): Promise<void> {
  await userEvent.click(field);
  if (field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement)
    field.setSelectionRange(field.value.length, field.value.length);
  await userEvent.paste(text);
}
