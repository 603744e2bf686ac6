import { type ComponentType, lazy, Suspense } from 'react';
import { Route, Switch } from 'wouter';

import { PageSpinner } from '../components/ui/spinner';
import { useAuth } from '../lib/auth';
import { pageModules } from './route-modules';
import { SignedInOnly, SignedOutOnly } from './route-guards';
import { UpdatePrompt } from '../features/install/components/update-prompt';
import { LandingPage } from './routes/landing';

// The landing page is eager; every other page is its own chunk so the first load stays small.
const GeneratorPage = lazy(() => pageModules.generator().then((m) => ({ default: m.GeneratorPage })));
const DashboardPage = lazy(() => pageModules.dashboard().then((m) => ({ default: m.DashboardPage })));
const CreditsPage = lazy(() => pageModules.credits().then((m) => ({ default: m.CreditsPage })));
const PaymentCheckoutPage = lazy(() =>
  pageModules.paymentCheckout().then((m) => ({ default: m.PaymentCheckoutPage })),
);
const PaymentSuccessPage = lazy(() =>
  pageModules.paymentSuccess().then((m) => ({ default: m.PaymentSuccessPage })),
);
const HistoryPage = lazy(() => pageModules.history().then((m) => ({ default: m.HistoryPage })));
const MediaPage = lazy(() => pageModules.media().then((m) => ({ default: m.MediaPage })));
const SubscribePage = lazy(() => pageModules.subscribe().then((m) => ({ default: m.SubscribePage })));
const AccountPage = lazy(() => pageModules.account().then((m) => ({ default: m.AccountPage })));
const AdminPage = lazy(() => pageModules.admin().then((m) => ({ default: m.AdminPage })));
const RegisterPage = lazy(() => pageModules.register().then((m) => ({ default: m.RegisterPage })));
const LoginPage = lazy(() => pageModules.login().then((m) => ({ default: m.LoginPage })));
// Live updates load with the first signed-in page, never with the landing page.
const LiveUpdates = lazy(() => import('./live-updates').then((m) => ({ default: m.LiveUpdates })));
const ForgotPasswordPage = lazy(() => pageModules.forgotPassword().then((m) => ({ default: m.ForgotPasswordPage })));
const ResetPasswordPage = lazy(() => pageModules.resetPassword().then((m) => ({ default: m.ResetPasswordPage })));
const SignedInExtras = lazy(() => import('./signed-in-extras').then((m) => ({ default: m.SignedInExtras })));
const NotFoundPage = lazy(() => pageModules.notFound().then((m) => ({ default: m.NotFoundPage })));

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
