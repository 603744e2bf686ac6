import type { PushSubscriptionBody } from '../../../shared/notifications';

// The browser's side of Web Push: the service worker (public/push-sw.js, imported by the app's
// Workbox worker) shows each message; here the page asks for permission and subscribes.

/** Whether this browser can receive push messages from this site (a service worker and the Push API). */
export function pushSupported(): boolean {
  return (
    typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window
  );
}

/** 'granted', 'denied' or 'default' (not asked yet); 'unsupported' without the Push API. */
export function pushPermission(): NotificationPermission | 'unsupported' {
  return pushSupported() ? Notification.permission : 'unsupported';
}

async function registration(): Promise<ServiceWorkerRegistration | null> {
  if (!pushSupported()) return null;
  // The app registers its worker at start (features/install); wait for it, within a few seconds.
  const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), 5000));
  return Promise.race([navigator.serviceWorker.ready, timeout]);
}

/** This browser's current subscription's endpoint, or null. */
export async function currentEndpoint(): Promise<string | null> {
  const worker = await registration();
  const subscription = await worker?.pushManager.getSubscription();
  return subscription?.endpoint ?? null;
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export class PushUnavailableError extends Error {}

/**
 * Asks for permission (when not yet given) and subscribes this browser with the server's VAPID key;
 * answers the subscription to send to the server.
 */
export async function subscribeThisBrowser(publicKey: string): Promise<PushSubscriptionBody> {
  if (!pushSupported()) throw new PushUnavailableError('This browser cannot show notifications from websites.');
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') {
    throw new PushUnavailableError(
      permission === 'denied'
        ? 'Notifications are blocked for this site. Allow them in your browser’s site settings, then try again.'
        : 'Notifications were not allowed.',
    );
  }
  const worker = await registration();
  if (!worker)
    throw new PushUnavailableError('The app’s service worker is not running. Reload the page and try again.');
  const existing = await worker.pushManager.getSubscription();
  const subscription =
    existing ??
    (await worker.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }));
  const json = subscription.toJSON();
  return { endpoint: subscription.endpoint, keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' } };
}

/** Ends this browser's subscription; answers its endpoint (for the server to forget), or null. */
export async function unsubscribeThisBrowser(): Promise<string | null> {
  const worker = await registration();
  const subscription = await worker?.pushManager.getSubscription();
  if (!subscription) return null;
  await subscription.unsubscribe();
  return subscription.endpoint;
}
