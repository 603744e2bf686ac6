/* Web Push in the app's service worker (imported by the Workbox worker, vite.config.ts): shows each
   message the server sends when a video is ready or failed, and opens the video when it is clicked. */
self.addEventListener('push', (event) => {
  let message = { title: 'Reelsmith', body: 'Your video has an update.', url: '/media', tag: 'reelsmith' };
  try {
    message = { ...message, ...event.data.json() };
  } catch {
    // Not JSON: the defaults above.
  }
  event.waitUntil(
    self.registration.showNotification(message.title, {
      body: message.body,
      tag: message.tag,
      data: { url: message.url },
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.url || '/media', self.location.origin);
  if (target.origin !== self.location.origin) return;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      // A tab this worker controls can be sent to the video (the worker claims every tab when it
      // starts: vite.config.ts clientsClaim); a tab it does not control refuses navigate(), so the
      // video then opens in a new one.
      const open = windows.find((w) => new URL(w.url).origin === target.origin);
      if (!open) return self.clients.openWindow(target.href);
      return open.navigate(target.href).then(
        // Bringing it to the front is the browser's to allow (a click on the notification does).
        (w) => (w || open).focus().catch(() => undefined),
        () => self.clients.openWindow(target.href),
      );
    }),
  );
});

/* The browser replaced (or dropped) this site's push subscription, as Firefox does when its push
   service rotates one: subscribe again with the same server key and tell the server, so the
   notifications keep coming. The session cookie goes with the requests; signed out, the server
   answers 401 and the next visit to the account page subscribes again. */
async function resubscribe(event) {
  const old = event.oldSubscription;
  let next = event.newSubscription;
  if (!next) {
    let key = old && old.options ? old.options.applicationServerKey : null;
    if (!key) {
      const settings = await fetch('/api/notifications', { credentials: 'include' });
      if (!settings.ok) return;
      key = (await settings.json()).push.publicKey;
    }
    next = await self.registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  }
  const json = next.toJSON();
  const send = (method, body) =>
    fetch('/api/notifications/push-subscriptions', {
      method,
      credentials: 'include',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  await send('POST', { endpoint: next.endpoint, keys: { p256dh: json.keys.p256dh, auth: json.keys.auth } });
  if (old && old.endpoint !== next.endpoint) await send('DELETE', { endpoint: old.endpoint });
}

self.addEventListener('pushsubscriptionchange', (event) => {
  event.waitUntil(resubscribe(event));
});
