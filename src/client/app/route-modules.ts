import { type ComponentType, lazy } from 'react';

import { type PagePath, pagePathOf } from '../../shared/pages';

// Every page but the landing page, by address: its code (loaded on demand) and who may open it.
// The router draws its routes from this table, and the entry (main.tsx) starts the code of the
// address asked for while the auth check and React are still loading, so a signed-in page does not
// wait for them before it begins to download.

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

/**
 * React.lazy over a page's loader. A page whose code has already arrived (the entry and boot load the
 * first page before the first render) is handed to lazy() as a thenable that calls back at once, so
 * it renders in the same pass. Handed the import's promise, lazy() would suspend once, show the
 * spinner, and React would then hold the page back for its fallback throttle (300 ms) although
 * nothing was left to load.
 */
export const lazyPage = (load: PageLoader) =>
  lazy(() => {
    const Page = load.loaded;
    if (!Page) return load().then((Loaded) => ({ default: Loaded }));
    const ready = { then: (resolve: (module: { default: ComponentType }) => void) => resolve({ default: Page }) };
    return ready as unknown as Promise<{ default: ComponentType }>;
  });

interface PageEntry {
  load: PageLoader;
  access: Access;
}

export const PAGES = {
  '/generator': {
    load: pageLoader(() => import('./routes/generator').then((m) => m.GeneratorPage)),
    access: 'signed-in',
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
 * signed in last time. A wrong guess costs one download, never what shows.
 */
export function preloadPage(pathname: string, wasSignedIn: boolean): void {
  const path = pageFor(pathname, wasSignedIn);
  if (path) void PAGES[path].load().catch(() => undefined);
}
