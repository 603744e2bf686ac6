import { type ComponentType, lazy, Suspense } from 'react';
import { Route, Switch } from 'wouter';

import { PageSpinner } from '../components/ui/spinner';
import { useAuth } from '../lib/auth';
import { SignedInOnly, SignedOutOnly } from './route-guards';
import { UpdatePrompt } from '../features/install/components/update-prompt';
import { LandingPage } from './routes/landing';

// The landing page is eager; every other page is its own chunk so the first load stays small.
const GeneratorPage = lazy(() => import('./routes/generator').then((m) => ({ default: m.GeneratorPage })));
const DashboardPage = lazy(() => import('./routes/dashboard').then((m) => ({ default: m.DashboardPage })));
const CreditsPage = lazy(() => import('./routes/credits').then((m) => ({ default: m.CreditsPage })));
const PaymentCheckoutPage = lazy(() =>
  import('./routes/payment-checkout').then((m) => ({ default: m.PaymentCheckoutPage })),
);
const PaymentSuccessPage = lazy(() =>
  import('./routes/payment-success').then((m) => ({ default: m.PaymentSuccessPage })),
);
const HistoryPage = lazy(() => import('./routes/history').then((m) => ({ default: m.HistoryPage })));
const MediaPage = lazy(() => import('./routes/media').then((m) => ({ default: m.MediaPage })));
const SubscribePage = lazy(() => import('./routes/subscribe').then((m) => ({ default: m.SubscribePage })));
const AccountPage = lazy(() => import('./routes/account').then((m) => ({ default: m.AccountPage })));
const AdminPage = lazy(() => import('./routes/admin').then((m) => ({ default: m.AdminPage })));
const RegisterPage = lazy(() => import('./routes/register').then((m) => ({ default: m.RegisterPage })));
const LoginPage = lazy(() => import('./routes/login').then((m) => ({ default: m.LoginPage })));
// Live updates load with the first signed-in page, never with the landing page.
const LiveUpdates = lazy(() => import('./live-updates').then((m) => ({ default: m.LiveUpdates })));
const ForgotPasswordPage = lazy(() => import('./routes/forgot-password').then((m) => ({ default: m.ForgotPasswordPage })));
const ResetPasswordPage = lazy(() => import('./routes/reset-password').then((m) => ({ default: m.ResetPasswordPage })));
const SignedInExtras = lazy(() => import('./signed-in-extras').then((m) => ({ default: m.SignedInExtras })));
const NotFoundPage = lazy(() => import('./routes/not-found').then((m) => ({ default: m.NotFoundPage })));

const SIGNED_IN_ROUTES: ReadonlyArray<readonly [path: string, Page: ComponentType]> = [
  ['/dashboard', DashboardPage],
  ['/credits', CreditsPage],
  ['/payment-checkout', PaymentCheckoutPage],
  ['/payment-success', PaymentSuccessPage],
  ['/history', HistoryPage],
  ['/media', MediaPage],
  ['/subscribe', SubscribePage],
  ['/admin', AdminPage],
  ['/account', AccountPage],
];

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
        <Route path="/generator">
          <SignedInOnly variant="generator">
            <GeneratorPage />
          </SignedInOnly>
        </Route>
        {SIGNED_IN_ROUTES.map(([path, Page]) => (
          <Route key={path} path={path}>
            <SignedInOnly>
              <Page />
            </SignedInOnly>
          </Route>
        ))}
        <Route path="/register">
          <SignedOutOnly>
            <RegisterPage />
          </SignedOutOnly>
        </Route>
        <Route path="/login">
          <SignedOutOnly>
            <LoginPage />
          </SignedOutOnly>
        </Route>
        <Route path="/forgot-password">
          <SignedOutOnly>
            <ForgotPasswordPage />
          </SignedOutOnly>
        </Route>
        {/* A reset link works signed in or out: it ends every other session either way. */}
        <Route path="/reset-password" component={ResetPasswordPage} />
        <Route component={NotFoundPage} />
      </Switch>
    </Suspense>
  );
}

/** The pages, plus what rides along them: the update prompt, and for signed-in people the first-time tour and install banner. */
export function AppRouter() {
  const { isLoading, isAuthenticated } = useAuth();
  if (isLoading) return <PageSpinner />;
  return (
    <>
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
