import type { PushMessage } from '../../../shared/notifications';

// Web Push (RFC 8030) with message encryption (RFC 8291, aes128gcm) and VAPID (RFC 8292). The
// `web-push` package builds each request (encrypts the payload, signs the VAPID JWT); we send it with
// fetch, within a time limit and without following redirects, and only to a push service we know.

/** web-push, loaded on first use (the key pair's first making, the first push), not at start. */
const loadWebPush = async () => (await import('web-push')).default;

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/** The browsers' push services (Chrome and Edge's FCM, Firefox's autopush, Safari's, Windows'). */
const BROWSER_PUSH_SERVICES = [
  'fcm.googleapis.com',
  'android.googleapis.com',
  'updates.push.services.mozilla.com',
  'push.services.mozilla.com',
  'web.push.apple.com',
  'notify.windows.com',
];

/**
 * Why a subscription's endpoint cannot be used, or null when it can: https on a browser's push
 * service, or a host:port the operator listed in PUSH_ALLOWED_HOSTS (http allowed there). Nothing
 * else: a client must not make this server send requests to an address of its choosing.
 */
export function pushEndpointProblem(endpoint: string, allowedHosts: readonly string[]): string | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'The push subscription endpoint is not a URL.';
  }
  if (url.username || url.password) return 'The push subscription endpoint may not carry credentials.';
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const hostname = url.hostname.toLowerCase();
  if ((url.protocol === 'https:' || url.protocol === 'http:') && allowedHosts.includes(`${hostname}:${port}`)) {
    return null;
  }
  const known = BROWSER_PUSH_SERVICES.some((host) => hostname === host || hostname.endsWith(`.${host}`));
  if (url.protocol !== 'https:' || port !== '443' || !known) {
    return "This browser's push service is not one this server sends to.";
  }
  return null;
}

/** A new VAPID pair (P-256), base64url like `web-push generate-vapid-keys` prints it. */
export async function makeVapidKeys(): Promise<VapidKeys> {
  return (await loadWebPush()).generateVAPIDKeys();
}

export type PushOutcome = 'sent' | 'gone' | 'failed';

/** A day: a phone that is off for the night still hears about the video in the morning. */
const PUSH_TTL_SECONDS = 24 * 60 * 60;
const PUSH_TIMEOUT_MS = 10_000;

/**
 * Sends one encrypted message to one subscription: 'gone' when the push service says it no longer
 * exists (404 or 410: remove it), 'failed' for anything else that is not a 2xx.
 */
export async function sendPush(
  subscription: { endpoint: string; p256dh: string; auth: string },
  message: PushMessage,
  vapid: { keys: VapidKeys; subject: string },
): Promise<{ outcome: PushOutcome; status: number | null }> {
  const request = (await loadWebPush()).generateRequestDetails(
    { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
    JSON.stringify(message),
    {
      vapidDetails: { subject: vapid.subject, ...vapid.keys },
      TTL: PUSH_TTL_SECONDS,
      urgency: 'normal',
      contentEncoding: 'aes128gcm',
    },
  );
  const headers = Object.fromEntries(
    Object.entries(request.headers)
      .filter(([name]) => name.toLowerCase() !== 'content-length')
      .map(([name, value]) => [name, String(value)]),
  );
  try {
    const response = await fetch(request.endpoint, {
      method: request.method,
      headers,
      body: request.body ? new Uint8Array(request.body) : null,
      redirect: 'manual',
      signal: AbortSignal.timeout(PUSH_TIMEOUT_MS),
    });
    await response.body?.cancel();
    if (response.status === 404 || response.status === 410) return { outcome: 'gone', status: response.status };
    return { outcome: response.ok ? 'sent' : 'failed', status: response.status };
  } catch {
    return { outcome: 'failed', status: null };
  }
}
