import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useEffect, useState } from 'react';

import { ErrorBoundary } from '../components/errors/error-boundary';
import { useToast } from '../components/ui/use-toast';
import { queryClient as defaultQueryClient } from '../lib/query-client';

// Radix Toast is most of the providers' weight and no page needs it to show. It loads with the
// person's first press or key, so it is there by the time that action's toast comes (a toast that
// comes first waits in the toast store meanwhile), and stays mounted from then on.
const Toaster = lazy(() => import('../components/ui/toaster').then((m) => ({ default: m.Toaster })));
const FIRST_INTERACTION = ['pointerdown', 'keydown'] as const;

function ToasterOnDemand() {
  const { toasts } = useToast();
  const [needed, setNeeded] = useState(false);
  useEffect(() => {
    if (needed) return undefined;
    const need = () => setNeeded(true);
    for (const type of FIRST_INTERACTION) window.addEventListener(type, need, { capture: true, passive: true });
    return () => {
      for (const type of FIRST_INTERACTION) window.removeEventListener(type, need, { capture: true });
    };
  }, [needed]);
  if (toasts.length > 0 && !needed) setNeeded(true);
  return needed || toasts.length > 0 ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  ) : null;
}

interface AppProvidersProps {
  children: ReactNode;
  /** Tests pass a fresh client so no cached data leaks between them. */
  queryClient?: QueryClient;
}

export function AppProviders({ children, queryClient = defaultQueryClient }: AppProvidersProps) {
  return (
    <QueryClientProvider client={queryClient}>
      <ErrorBoundary>{children}</ErrorBoundary>
      <ToasterOnDemand />
    </QueryClientProvider>
  );
}
