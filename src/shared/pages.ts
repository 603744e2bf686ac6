// The web client's addresses, shared so the server answers an address no page has with 404 (and
// the app shell, which shows the "not found" page), not 200. The client's route table
// (src/client/app/route-modules.ts) is typed by this list, so the two cannot drift.

/** Every page but "/" (the landing page, or the generator for someone signed in). */
export const PAGE_PATHS = [
  '/generator',
  '/dashboard',
  '/credits',
  '/payment-checkout',
  '/payment-success',
  '/history',
  '/media',
  '/storyboards',
  '/storyboards/:id',
  '/characters',
  '/subscribe',
  '/admin',
  '/admin/jobs',
  '/admin/costs',
  '/admin/safety',
  '/admin/settings',
  '/account',
  '/register',
  '/login',
  '/forgot-password',
  '/reset-password',
  '/verify',
  '/report',
  '/watch/:token',
] as const;

export type PagePath = (typeof PAGE_PATHS)[number];

const FIXED_PATHS: ReadonlySet<string> = new Set(PAGE_PATHS.filter((path) => !path.includes(':')));

/** The page an address shows (trailing slashes ignored), or undefined for "/" and for no page at all. */
export function pagePathOf(pathname: string): PagePath | undefined {
  const path = pathname.replace(/\/+$/, '');
  // The addresses with a parameter: a shared video's watch page, and one storyboard's editor.
  if (/^\/watch\/[^/]+$/.test(path)) return '/watch/:token';
  if (/^\/storyboards\/[^/]+$/.test(path)) return '/storyboards/:id';
  return FIXED_PATHS.has(path) ? (path as PagePath) : undefined;
}

/** Whether the web client has a page at this address ("/" included). */
export function isPageAddress(pathname: string): boolean {
  return pathname === '/' || pagePathOf(pathname) !== undefined;
}
