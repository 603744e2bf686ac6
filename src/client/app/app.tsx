import type { QueryClient } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { Router } from 'wouter';

import { AppProviders } from './providers';
import { AppRouter } from './router';

/** The whole app. The browser mounts it (boot.tsx) and the build prerenders the landing page from it (prerender.tsx). */
interface AppProps {
  queryClient: QueryClient;
  /** The address to render when there is no browser (the build's prerender); the browser's own otherwise. */
  ssrPath?: string;
}

export function App({ queryClient, ssrPath }: AppProps) {
  return (
    <StrictMode>
      <AppProviders queryClient={queryClient}>
        <Router ssrPath={ssrPath}>
          <AppRouter />
        </Router>
      </AppProviders>
    </StrictMode>
  );
}
