/*
 * The app's service worker: the app shell and its hashed assets stay on the phone, so with no network
 * the app still opens and home and activity can show the last-known balance and transactions (kept by
 * the app itself, src/shared/offline/lastKnown.ts). Nothing from /api, /cms or /sandbox is cached here:
 * balances and tokens never enter this cache.
 * - Pages (navigations): the network first; offline, the last app shell seen.
 * - /assets/*: hashed and immutable, so the cache first. Once this worker controls the page, the page
 *   hands over the assets it fetched without it ('cache-assets'), so the first visit is enough to open
 *   offline.
 * A new version replaces the old caches when it activates.
 */
const version = 'providers-card-shell-v1';
const shell = '/index.html';

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(version)
      .then((cache) => cache.add(shell))
      .then(() => self.skipWaiting()),
  );
});

/** Only this origin's hashed assets are ever put in the cache this way. */
const isAsset = (url) => url.origin === self.location.origin && url.pathname.startsWith('/assets/');

self.addEventListener('message', (event) => {
  if (event.origin !== self.location.origin || event.data?.type !== 'cache-assets' || !Array.isArray(event.data.urls)) return;
  const urls = event.data.urls.filter((url) => typeof url === 'string' && isAsset(new URL(url, self.location.origin)));
  // Only what is not kept yet: a later visit hands over the same files, which must not be fetched again.
  event.waitUntil(
    caches.open(version).then((cache) =>
      Promise.all(urls.map((url) => cache.match(url).then((kept) => kept ?? cache.add(url).catch(() => {})))),
    ),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== version).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;

  if (request.mode === 'navigate') {
    event.respondWith(
      fetch(request)
        .then((response) => {
          // Only the app's own page is the shell (not a JSON answer opened in a tab).
          if (response.ok && response.headers.get('content-type')?.includes('text/html')) {
            const copy = response.clone();
            // Kept alive until stored: a busy phone may otherwise stop the worker first.
            event.waitUntil(caches.open(version).then((cache) => cache.put(shell, copy)));
          }
          return response;
        })
        .catch(() => caches.match(shell).then((cached) => cached ?? Response.error())),
    );
    return;
  }

  if (isAsset(url)) {
    event.respondWith(
      caches.match(request).then(
        (cached) =>
          cached ??
          fetch(request).then((response) => {
            if (response.ok) {
              const copy = response.clone();
              event.waitUntil(caches.open(version).then((cache) => cache.put(request, copy)));
            }
            return response;
          }),
      ),
    );
  }
});
