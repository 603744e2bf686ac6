// Each page's code, loaded on demand. The router makes its lazy pages from these, and the entry
// (main.tsx) starts the one the address asks for while the auth check and React are still loading,
// so a signed-in page does not wait for them before it begins to download.
export const pageModules = {
  generator: () => import('./routes/generator'),
  dashboard: () => import('./routes/dashboard'),
  credits: () => import('./routes/credits'),
  paymentCheckout: () => import('./routes/payment-checkout'),
  paymentSuccess: () => import('./routes/payment-success'),
  history: () => import('./routes/history'),
  media: () => import('./routes/media'),
  subscribe: () => import('./routes/subscribe'),
  account: () => import('./routes/account'),
  admin: () => import('./routes/admin'),
  register: () => import('./routes/register'),
  login: () => import('./routes/login'),
  forgotPassword: () => import('./routes/forgot-password'),
  resetPassword: () => import('./routes/reset-password'),
  notFound: () => import('./routes/not-found'),
} as const;

type PageName = keyof typeof pageModules;

const PAGE_BY_PATH: Readonly<Record<string, PageName>> = {
  '/generator': 'generator',
  '/dashboard': 'dashboard',
  '/credits': 'credits',
  '/payment-checkout': 'paymentCheckout',
  '/payment-success': 'paymentSuccess',
  '/history': 'history',
  '/media': 'media',
  '/subscribe': 'subscribe',
  '/account': 'account',
  '/admin': 'admin',
  '/register': 'register',
  '/login': 'login',
  '/forgot-password': 'forgotPassword',
  '/reset-password': 'resetPassword',
};

/** The page `pathname` shows: `/` is the generator for someone signed in (the landing page is part of the app). */
export function pageFor(pathname: string, signedIn: boolean): PageName | undefined {
  return pathname === '/' ? (signedIn ? 'generator' : undefined) : PAGE_BY_PATH[pathname.replace(/\/+$/, '')];
}

/**
 * Starts loading the page `pathname` will show, guessing for `/` from whether this browser was
 * signed in last time. A wrong guess costs one download, never what shows.
 */
export function preloadPage(pathname: string, wasSignedIn: boolean): void {
  const name = pageFor(pathname, wasSignedIn);
  if (name) void pageModules[name]().catch(() => undefined);
}
