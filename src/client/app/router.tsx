import { type ComponentType, lazy, Suspense, useLayoutEffect, useRef } from 'react';
import { Route, Switch, useLocation } from 'wouter';

import { PageSpinner } from '../components/ui/spinner';
import { dismissToast } from '../components/ui/use-toast';
import { useAuth } from '../lib/auth';
import { lazyPage } from './lazy-page';
import { loadNotFoundPage, PAGES, type PagePath } from './route-modules';
import { SignedInOnly, SignedOutOnly } from './route-guards';
import { UpdatePrompt } from '../features/install/components/update-prompt';
import { LandingPage } from './routes/landing';

// The landing page is eager; every other page is its own chunk so the first load stays small.
const PAGE_PATHS = Object.keys(PAGES) as PagePath[];
const LAZY_PAGES = {} as Record<PagePath, ComponentType>;
for (const path of PAGE_PATHS) LAZY_PAGES[path] = lazyPage(PAGES[path].load);
const GeneratorPage = LAZY_PAGES['/generator'];
const NotFoundPage = lazyPage(loadNotFoundPage);
// Live updates load with the first signed-in page, never with the landing page.
const LiveUpdates = lazy(() => import('./live-updates').then((m) => ({ default: m.LiveUpdates })));
const SignedInExtras = lazy(() => import('./signed-in-extras').then((m) => ({ default: m.SignedInExtras })));

/** A page behind the guard its table entry names; the generator's guard has its own 'Sign In Required' wording. */
function GuardedPage({ path }: { path: PagePath }) {
  const Page = LAZY_PAGES[path];
  switch (PAGES[path].access) {
    case 'signed-in':
      return (
        <SignedInOnly variant={path === '/generator' ? 'generator' : undefined}>
          <Page />
        </SignedInOnly>
      );
    case 'signed-out':
      return (
        <SignedOutOnly>
          <Page />
        </SignedOutOnly>
      );
    case 'anyone':
      return <Page />;
  }
}

/** `/` is the landing page for visitors and the generator for signed-in users. */
function HomeRoute() {
  const { isAuthenticated } = useAuth();
  return isAuthenticated ? <GeneratorPage /> : <LandingPage />;
}

function AppRoutes() {
  return (
    <Suspense fallback={<PageSpinner />}>
      <Switch>
        <Route path="/" component={HomeRoute} />
        {PAGE_PATHS.map((path) => (
          <Route key={path} path={path}>
            <GuardedPage path={path} />
          </Route>
        ))}
        <Route component={NotFoundPage} />
      </Switch>
    </Suspense>
  );
}

/**
 * A toast belongs to the page it was raised on: when the page changes (a sign-up that lands on the
 * dashboard, a redirect to the media player), it is dismissed. A layout effect, so it runs before
 * the new page's own effects can raise theirs.
 */
function DismissToastsOnPageChange() {
  const [path] = useLocation();
  const shownOn = useRef(path);
  useLayoutEffect(() => {
    if (shownOn.current === path) return;
    shownOn.current = path;
    dismissToast();
  }, [path]);
  return null;
}

/** The pages, plus what rides along them: the update prompt, and for signed-in people the first-time tour and install banner. */
export function AppRouter() {
  const { isLoading, isAuthenticated } = useAuth();
  if (isLoading) return <PageSpinner />;
  return (
    <>
      <DismissToastsOnPageChange />
      <AppRoutes />
      <UpdatePrompt />
      {isAuthenticated ? (
        <Suspense fallback={null}>
          <LiveUpdates />
          <SignedInExtras />
        </Suspense>
      ) : null}
    </>
  );
}
