import './index.css';

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

// The entry point is the one file outside app/ that mounts it.
import { AppProviders } from './app/providers';
import { AppRouter } from './app/router';
import { listenForInstallPrompt } from './features/install/install-prompt';

listenForInstallPrompt();
// The service worker (production builds only) after the page has loaded, so it never competes with it.
if (import.meta.env.PROD) {
  window.addEventListener('load', () => {
    void import('./features/install/service-worker').then(({ registerServiceWorker }) => registerServiceWorker());
  });
}

const container = document.getElementById('root');
if (!container) throw new Error('index.html is missing the #root element');

createRoot(container).render(
  <StrictMode>
    <AppProviders>
      <AppRouter />
    </AppProviders>
  </StrictMode>,
);
