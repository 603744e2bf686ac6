import './index.css';

// The entry point is the one file outside app/ that starts it. It stays small and imports nothing
// of React: it asks who is signed in and starts the page's own code and first data at once, while
// React and the app (app/boot.tsx, preloaded by index.html) download in parallel.
import { LANDING_MARKER } from './app/prerendered';
import { preloadPage } from './app/route-modules';
import { beginAuthCheck, wasSignedIn } from './lib/auth-request';

const container = document.getElementById('root');
if (!container) throw new Error('index.html is missing the #root element');

const start = () => void import('./app/boot').then(({ boot }) => boot(container));

if (container.hasAttribute(LANDING_MARKER)) {
  // The prerendered landing page is only ever sent to a browser with no session: nothing to ask.
  // It is already on screen and its links work without script; the app loads once it has painted.
  requestAnimationFrame(() => setTimeout(start, 0));
} else {
  beginAuthCheck();
  preloadPage(window.location.pathname, wasSignedIn());
  start();
}
