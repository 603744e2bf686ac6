import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';

import { type PagePath, pagePathOf } from '../../shared/pages';
import { generationsQueryKey } from '../features/generations/api/query-keys';
import { paymentsConfigQueryKey } from '../features/payments/api/query-keys';
import { beginEarlyGets } from '../lib/early-requests';
import { balanceQueryKey, modelsQueryKey } from '../lib/query-keys';

// Every page but the landing page, by address: its code (loaded on demand) and who may open it.
// The router draws its routes from this table, and the entry (main.tsx) starts the code of the
// address asked for while the auth check and React are still loading, so a signed-in page does not
// wait for them before it begins to download. A page may also name the data its first screen reads:
// the entry asks for it at the same time, and the app's start (boot.tsx) puts it in the cache before
// the first render, so the page renders once with it rather than once per answer.
// Nothing here imports React at run time (the router's lazyPage is in lazy-page.ts): the entry
// starts these requests without waiting for React's chunk to download and run.

/** 'signed-in': SignedInOnly; 'signed-out': SignedOutOnly; 'anyone': no guard. */
type Access = 'signed-in' | 'signed-out' | 'anyone';

/** Loads a page's code; once it has arrived, `loaded` holds the page, so the router can render it without waiting. */
export interface PageLoader {
  (): Promise<ComponentType>;
  loaded?: ComponentType;
}

export function pageLoader(importPage: () => Promise<ComponentType>): PageLoader {
  const load: PageLoader = () =>
    importPage().then((Page) => {
      load.loaded = Page;
      return Page;
    });
  return load;
}

/** What a page's first screen reads. */
interface PageData {
  /** The GETs behind it, which the entry starts when this browser was signed in last time. */
  urls: readonly string[];
  /** Loads the page's own code that fills the cache with them (taking the entry's answers). */
  prefetch: () => Promise<(client: QueryClient) => Promise<void>>;
}

export interface PageEntry {
  load: PageLoader;
  access: Access;
  data?: PageData;
}

export const PAGES = {
  '/generator': {
    load: pageLoader(() => import('./routes/generator').then((m) => m.GeneratorPage)),
    access: 'signed-in',
    data: {
      urls: [modelsQueryKey[0], balanceQueryKey[0], generationsQueryKey[0], paymentsConfigQueryKey[0]],
      prefetch: () => import('./routes/generator').then((m) => m.prefetchGeneratorData),
    },
  },
  '/dashboard': {
    load: pageLoader(() => import('./routes/dashboard').then((m) => m.DashboardPage)),
    access: 'signed-in',
  },
  '/credits': { load: pageLoader(() => import('./routes/credits').then((m) => m.CreditsPage)), access: 'signed-in' },
  '/payment-checkout': {
    load: pageLoader(() => import('./routes/payment-checkout').then((m) => m.PaymentCheckoutPage)),
    access: 'signed-in',
  },
  '/payment-success': {
    load: pageLoader(() => import('./routes/payment-success').then((m) => m.PaymentSuccessPage)),
    access: 'signed-in',
  },
  '/history': { load: pageLoader(() => import('./routes/history').then((m) => m.HistoryPage)), access: 'signed-in' },
  '/media': { load: pageLoader(() => import('./routes/media').then((m) => m.MediaPage)), access: 'signed-in' },
  // Storyboards (issue 47): the user's boards, and one board's editor; the characters their shots use.
  '/storyboards': {
    load: pageLoader(() => import('./routes/storyboards').then((m) => m.StoryboardsPage)),
    access: 'signed-in',
  },
  '/storyboards/:id': {
    load: pageLoader(() => import('./routes/storyboard').then((m) => m.StoryboardPage)),
    access: 'signed-in',
  },
  '/characters': {
    load: pageLoader(() => import('./routes/characters').then((m) => m.CharactersPage)),
    access: 'signed-in',
  },
  '/subscribe': {
    load: pageLoader(() => import('./routes/subscribe').then((m) => m.SubscribePage)),
    access: 'signed-in',
  },
  '/admin': { load: pageLoader(() => import('./routes/admin').then((m) => m.AdminPage)), access: 'signed-in' },
  '/admin/jobs': {
    load: pageLoader(() => import('./routes/admin-jobs').then((m) => m.AdminJobsPage)),
    access: 'signed-in',
  },
  '/admin/costs': {
    load: pageLoader(() => import('./routes/admin-costs').then((m) => m.AdminCostsPage)),
    access: 'signed-in',
  },
  '/admin/safety': {
    load: pageLoader(() => import('./routes/admin-safety').then((m) => m.AdminSafetyPage)),
    access: 'signed-in',
  },
  '/admin/settings': {
    load: pageLoader(() => import('./routes/admin-settings').then((m) => m.AdminSettingsPage)),
    access: 'signed-in',
  },
  '/account': { load: pageLoader(() => import('./routes/account').then((m) => m.AccountPage)), access: 'signed-in' },
  '/register': {
    load: pageLoader(() => import('./routes/register').then((m) => m.RegisterPage)),
    access: 'signed-out',
  },
  '/login': { load: pageLoader(() => import('./routes/login').then((m) => m.LoginPage)), access: 'signed-out' },
  '/forgot-password': {
    load: pageLoader(() => import('./routes/forgot-password').then((m) => m.ForgotPasswordPage)),
    access: 'signed-out',
  },
  // A reset link works signed in or out: it ends every other session either way.
  '/reset-password': {
    load: pageLoader(() => import('./routes/reset-password').then((m) => m.ResetPasswordPage)),
    access: 'anyone',
  },
  // Anyone, signed in or not, checks a file's Content Credentials.
  '/verify': { load: pageLoader(() => import('./routes/verify').then((m) => m.VerifyPage)), access: 'anyone' },
  // Anyone reports a video (issue 44): a signed-in reporter's account email is used.
  '/report': { load: pageLoader(() => import('./routes/report').then((m) => m.ReportPage)), access: 'anyone' },
  // A shared video, for anyone with its link.
  '/watch/:token': { load: pageLoader(() => import('./routes/watch').then((m) => m.WatchPage)), access: 'anyone' },
} satisfies Record<PagePath, PageEntry>;

export type { PagePath };

/** Any other address. */
export const loadNotFoundPage = pageLoader(() => import('./routes/not-found').then((m) => m.NotFoundPage));

/** The page `pathname` shows: `/` is the generator for someone signed in (the landing page is part of the app). */
export function pageFor(pathname: string, signedIn: boolean): PagePath | undefined {
  if (pathname === '/') return signedIn ? '/generator' : undefined;
  return pagePathOf(pathname);
}

/**
 * Starts loading the page `pathname` will show, guessing for `/` from whether this browser was
 * signed in last time, and, when it was, the data the page's first screen reads. A wrong guess
 * costs a few downloads, never what shows: the answers are dropped unless someone is signed in.
 */
export function preloadPage(pathname: string, wasSignedIn: boolean): void {
  const path = pageFor(pathname, wasSignedIn);
  if (!path) return;
  const page: PageEntry = PAGES[path];
  void page.load().catch(() => undefined);
  if (wasSignedIn && page.data) beginEarlyGets(page.data.urls);
}
