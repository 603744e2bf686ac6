import './index.css';

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

// The entry point is the one file outside app/ that mounts it.
import { AppProviders } from './app/providers';
import { AppRouter } from './app/router';

const container = document.getElementById('root');
if (!container) throw new Error('index.html is missing the #root element');

createRoot(container).render(
  <StrictMode>
    <AppProviders>
      <AppRouter />
    </AppProviders>
  </StrictMode>,
);
