import type { ComponentType } from 'react';

// Every page but the landing page, by address: its code (loaded on demand) and who may open it.
// The router draws its routes from this table, and the entry (main.tsx) starts the code of the
// address asked for while the auth check and React are still loading, so a signed-in page does not
// wait for them before it begins to download.

/** 'signed-in': SignedInOnly; 'signed-out': SignedOutOnly; 'anyone': no guard. */
type Access = 'signed-in' | 'signed-out' | 'anyone';

interface PageEntry {
  load: () => Promise<ComponentType>;
  access: Access;
}

export const PAGES = {
  '/generator': { load: () => import('./routes/generator').then((m) => m.GeneratorPage), access: 'signed-in' },
  '/dashboard': { load: () => import('./routes/dashboard').then((m) => m.DashboardPage), access: 'signed-in' },
  '/credits': { load: () => import('./routes/credits').then((m) => m.CreditsPage), access: 'signed-in' },
  '/payment-checkout': {
    load: () => import('./routes/payment-checkout').then((m) => m.PaymentCheckoutPage),
    access: 'signed-in',
  },
  '/payment-success': {
    load: () => import('./routes/payment-success').then((m) => m.PaymentSuccessPage),
    access: 'signed-in',
  },
  '/history': { load: () => import('./routes/history').then((m) => m.HistoryPage), access: 'signed-in' },
  '/media': { load: () => import('./routes/media').then((m) => m.MediaPage), access: 'signed-in' },
  '/subscribe': { load: () => import('./routes/subscribe').then((m) => m.SubscribePage), access: 'signed-in' },
  '/admin': { load: () => import('./routes/admin').then((m) => m.AdminPage), access: 'signed-in' },
  '/account': { load: () => import('./routes/account').then((m) => m.AccountPage), access: 'signed-in' },
  '/register': { load: () => import('./routes/register').then((m) => m.RegisterPage), access: 'signed-out' },
  '/login': { load: () => import('./routes/login').then((m) => m.LoginPage), access: 'signed-out' },
  '/forgot-password': {
    load: () => import('./routes/forgot-password').then((m) => m.ForgotPasswordPage),
    access: 'signed-out',
  },
  // A reset link works signed in or out: it ends every other session either way.
  '/reset-password': { load: () => import('./routes/reset-password').then((m) => m.ResetPasswordPage), access: 'anyone' },
} satisfies Record<string, PageEntry>;

export type PagePath = keyof typeof PAGES;

/** Any other address. */
export const loadNotFoundPage = () => import('./routes/not-found').then((m) => m.NotFoundPage);

/** The page `pathname` shows: `/` is the generator for someone signed in (the landing page is part of the app). */
export function pageFor(pathname: string, signedIn: boolean): PagePath | undefined {
  if (pathname === '/') return signedIn ? '/generator' : undefined;
  const path = pathname.replace(/\/+$/, '');
  return path in PAGES ? (path as PagePath) : undefined;
}

/**
 * Starts loading the page `pathname` will show, guessing for `/` from whether this browser was
 * signed in last time. A wrong guess costs one download, never what shows.
 */
export function preloadPage(pathname: string, wasSignedIn: boolean): void {
  const path = pageFor(pathname, wasSignedIn);
  if (path) void PAGES[path].load().catch(() => undefined);
}
