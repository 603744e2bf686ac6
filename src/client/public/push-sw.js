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
      const open = windows.find((w) => new URL(w.url).origin === target.origin);
      if (open) return open.navigate(target.href).then((w) => (w || open).focus());
      return self.clients.openWindow(target.href);
    }),
  );
});
