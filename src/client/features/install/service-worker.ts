import { Workbox } from 'workbox-window';

import { offerUpdate } from './update-prompt-store';

/**
 * Registers /sw.js (built by vite-plugin-pwa: the app shell and hashed assets, never /api/).
 * A new release waits until the person accepts 'New version available'; then it takes over and the
 * page reloads once on the new files.
 */
export async function registerServiceWorker(): Promise<void> {
  if (!('serviceWorker' in navigator)) return;
  const workbox = new Workbox('/sw.js', { scope: '/' });
  workbox.addEventListener('waiting', () => {
    offerUpdate(() => {
      workbox.addEventListener('controlling', () => window.location.reload());
      workbox.messageSkipWaiting();
    });
  });
  try {
    await workbox.register();
  } catch (error) {
    // No worker (private mode, blocked storage) only means no offline shell.
    console.warn('The service worker could not be registered', error);
  }
}
