import type { QueryClient } from '@tanstack/react-query';
import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';

import { listenForInstallPrompt } from '../features/install/install-prompt';
import { pendingAuthCheck, settleAuthCheck } from '../lib/auth-request';
import { dropEarlyGets } from '../lib/early-requests';
import { queryClient } from '../lib/query-client';
import { authQueryKey } from '../lib/query-keys';
import { App } from './app';
import { LANDING_MARKER } from './prerendered';
import { PAGES, type PageEntry, pageFor } from './route-modules';

/** The first render waits at most this long for the answers below; the page's spinner shows meanwhile. */
const FIRST_RENDER_WAIT_MS = 1500;

/**
 * Mounts the app. The server sends the prerendered landing page only to a browser without a
 * session cookie, so that page hydrates as signed out without asking; every other page renders
 * here. Both run as a transition, in slices that leave the main thread free between them.
 */
export async function boot(container: HTMLElement): Promise<void> {
  listenForInstallPrompt();
  if (container.hasAttribute(LANDING_MARKER)) {
    queryClient.setQueryData(authQueryKey, null);
    startTransition(() => {
      hydrateRoot(container, <App queryClient={queryClient} />);
    });
  } else {
    await prepareFirstRender(queryClient);
    const root = createRoot(container);
    startTransition(() => root.render(<App queryClient={queryClient} />));
  }
  registerServiceWorkerAfterLoad();
}

/**
 * Waits (briefly) for who is signed in, for the page's code and for the data its first screen reads
 * (a page that names it in route-modules.ts), so the first render is the page itself with its data,
 * as a transition in slices: an answer arriving after it would render the page again, synchronously,
 * all at once. Gives up after FIRST_RENDER_WAIT_MS; the app then shows its spinner until they come,
 * and the page its own loading states.
 */
async function prepareFirstRender(client: QueryClient): Promise<void> {
  const check = pendingAuthCheck();
  if (!check) return;
  const ready = (async () => {
    const user = await check;
    // Unless the app already took the check (it only does once rendered), its answer goes in the cache.
    if (pendingAuthCheck() !== check) return;
    client.setQueryData(authQueryKey, user);
    settleAuthCheck(check);
    const page = pageFor(window.location.pathname, user !== null);
    if (!user || !page) return;
    const { load, data } = PAGES[page] as PageEntry;
    // The page's code and its data together; the data's requests left the entry with the auth check.
    await Promise.all([load(), data?.prefetch().then((prefetch) => prefetch(client))]);
  })().finally(dropEarlyGets);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const giveUp = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, FIRST_RENDER_WAIT_MS);
  });
  await Promise.race([ready.catch(() => undefined), giveUp]);
  clearTimeout(timer);
}

/** The service worker (production builds only) once the page has loaded, so it never competes with it. */
function registerServiceWorkerAfterLoad(): void {
  if (!import.meta.env.PROD) return;
  const register = () =>
    void import('../features/install/service-worker').then(({ registerServiceWorker }) => registerServiceWorker());
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
