// The family portal's service worker (docs/portal.md, "Offline"): keeps the app shell and the
// last portal data readable without a network. Deliberately small:
// - pages under /ortu/: network first, the cached shell when offline;
// - /assets/* (content-hashed): cache first;
// - GET /api/v1/portal/* reads: network first, the last answer when offline.
// Nothing else is touched; sign-out clears the data cache (ortu/AccountPage.tsx).
const SHELL = 'tatib-ortu-shell-v1';
const DATA = 'tatib-ortu-data';

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(SHELL).then((c) => c.addAll(['/ortu/', '/ortu/manifest.json'])).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith('tatib-ortu-shell') && k !== SHELL).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

async function networkFirst(request, cacheName, fallbackUrl) {
  const cache = await caches.open(cacheName);
  try {
    const res = await fetch(request);
    if (res.ok) cache.put(fallbackUrl ?? request, res.clone());
    return res;
  } catch (err) {
    const hit = await cache.match(fallbackUrl ?? request);
    if (hit) return hit;
    throw err;
  }
}

async function cacheFirst(request) {
  const cache = await caches.open(SHELL);
  const hit = await cache.match(request);
  if (hit) return hit;
  const res = await fetch(request);
  if (res.ok) cache.put(request, res.clone());
  return res;
}

self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  if (req.mode === 'navigate' && url.pathname.startsWith('/ortu')) {
    event.respondWith(networkFirst(req, SHELL, '/ortu/'));
  } else if (url.pathname.startsWith('/assets/')) {
    event.respondWith(cacheFirst(req));
  } else if (url.pathname.startsWith('/api/v1/portal/') && !url.pathname.endsWith('/pdf')) {
    event.respondWith(networkFirst(req, DATA));
  }
});

// Web Push (docs/portal.md, "Notifications"): pushes carry no payload; the notice is generic
// and opens the portal, which shows what is new.
self.addEventListener('push', (event) => {
  const en = (self.navigator.language || '').toLowerCase().startsWith('en');
  event.waitUntil(
    self.registration.showNotification(en ? 'News from the school' : 'Kabar baru dari sekolah', {
      body: en ? 'Open the parent portal to see it.' : 'Buka portal orang tua untuk melihatnya.',
      icon: '/ortu/icon-192.png',
      tag: 'tatib-ortu',
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(
    self.clients.matchAll({ type: 'window' }).then((list) => {
      const open = list.find((c) => new URL(c.url).pathname.startsWith('/ortu'));
      return open ? open.focus() : self.clients.openWindow('/ortu/');
    }),
  );
});
