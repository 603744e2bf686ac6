import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense } from 'react';

import { ErrorBoundary } from '../components/errors/error-boundary';
import { queryClient as defaultQueryClient } from '../lib/query-client';

// Radix Toast is most of the providers' weight and no page needs it for its first paint; toasts
// raised before it loads wait in the toast store and appear when it mounts.
const Toaster = lazy(() => import('../components/ui/toaster').then((m) => ({ default: m.Toaster })));

interface AppProvidersProps {
  children: ReactNode;
  /** Tests pass a fresh client so no cached data leaks between them. */
  queryClient?: QueryClient;
}

export function AppProviders({ children, queryClient = defaultQueryClient }: AppProvidersProps) {
  return (
    <QueryClientProvider client={queryClient}>
      <ErrorBoundary>{children}</ErrorBoundary>
      <Suspense fallback={null}>
        <Toaster />
      </Suspense>
    </QueryClientProvider>
  );
}
