/*
 * The app's service worker: the app shell and its hashed assets stay on the phone, so with no network
 * the app still opens and home and activity can show the last-known balance and transactions (kept by
 * the app itself, src/shared/offline/lastKnown.ts). Nothing from /api, /cms or /sandbox is cached here:
 * balances and tokens never enter this cache.
 * - Pages (navigations): the network first (its request started beside the worker's own start:
 *   navigation preload); offline, on a server error, or when the network is slow (pageOrShell), the
 *   last app shell whose files are all kept (commitShell).
 * - /assets/*: hashed and immutable, so the cache first. Once this worker controls the page, the page
 *   hands over the assets it fetched without it ('cache-assets'), so the first visit is enough to open
 *   offline. At install it fetches ahead the two languages' messages and the activity screens' files
 *   (activityScreens), which a page loads only once they are used.
 * - Files of older releases are deleted once they cannot be needed (pruneOtherReleases): a phone short
 *   of storage may otherwise lose the whole origin's data to the browser's eviction.
 * Each release's worker differs (its file list), so the browser installs it; it takes over only once
 * no page of the app is open (no skipWaiting): it never takes over a page already open. Until then a
 * new release's pages run under the older worker, which keeps their files and prunes nothing while
 * such a page's shell is pending or kept (neither names only its release's files).
 */
const version = 'providers-card-shell-v1';
const shell = '/index.html';
/** The page loaded last, until every file it names is kept (commitShell). */
const pendingShell = '/index.html?pending';
/** This release's files (/assets/…), written in by the build (vite.config.ts); empty in development. */
const buildAssets = [];
/**
 * This release's message catalogues, English and Spanish (among buildAssets), written in by the build:
 * kept at install, as a page loads only its own language's. Offline, the other language could not be
 * chosen, and once chosen the app could not start until the network came back.
 */
const catalogues = [];
/**
 * The files of the activity list and a transaction's detail (their lazy chunks, the chunks and
 * stylesheets those import, less the entry's own: among buildAssets), written in by the build: kept at
 * install. A page loads a screen's files only when it is opened: offline, activity opened from home
 * showed the error screen instead of the last-known activity (issue 11) unless it had been opened online.
 */
const activityScreens = [];

/** Only this origin's hashed assets are ever put in the cache this way. */
const isAsset = (url) => url.origin === self.location.origin && url.pathname.startsWith('/assets/');

/** The addresses the server answers with the app's page (server/app.ts): a PDF or JSON opened in a tab is never the shell. */
const isAppPage = (url) => url.pathname === shell || (!/^\/(api|cms|sandbox)\//.test(url.pathname) && !/\.[^/]*$/.test(url.pathname));

/** The /assets/ files a page names (its entry script and the modules it preloads). */
const filesOf = (html) => html.match(/\/assets\/[^"'\s)>]+/g) ?? [];

/**
 * The shell's changes and the deletions run one at a time, in the order asked: each reads what the
 * one before wrote (two pages' shells never cross, a deletion never works from a shell since replaced).
 */
let shellWork = Promise.resolve();
const oneAtATime = (work) => (shellWork = shellWork.then(work, work));

/** A page as the pending shell (the page loaded last, or at install the app's page): it becomes the shell once its files are kept. */
const keepPage = (cache, page) => cache.put(pendingShell, page).then(() => oneAtATime(() => commitShell(cache)));

self.addEventListener('install', (event) => {
  // A shell already kept stays until a page's files are all there: this release's shell without its
  // files would not start offline, the kept one with its files does.
  event.waitUntil(
    caches.open(version).then((cache) =>
      Promise.all([
        cache.match(shell).then((kept) => kept ?? fetch(shell).then((page) => (page.ok ? keepPage(cache, page) : undefined))),
        // Small (a few KB each); only what is not kept yet (a file the release before shares is not
        // fetched again); one that cannot be fetched now is kept when a page loads it.
        ...[...catalogues, ...activityScreens].map((url) => cache.match(url).then((kept) => kept ?? cache.add(url).catch(() => undefined))),
      ]),
    ),
  );
});

/**
 * The pending page becomes the shell once it names its files and every one is kept. Offline, a shell
 * without its files starts blank, while the one before it still has its own: after a release, over a
 * network that drops the new entry script halfway, the phone keeps opening the release before.
 */
async function commitShell(cache) {
  const pending = await cache.match(pendingShell);
  if (!pending) return;
  const files = filesOf(await pending.clone().text());
  const kept = await Promise.all(files.map((file) => cache.match(file)));
  if (files.length === 0 || kept.some((response) => !response)) return;
  await cache.put(shell, pending);
  await cache.delete(pendingShell);
}

self.addEventListener('message', (event) => {
  if (event.origin !== self.location.origin || event.data?.type !== 'cache-assets' || !Array.isArray(event.data.urls)) return;
  const urls = event.data.urls.filter((url) => typeof url === 'string' && isAsset(new URL(url, self.location.origin)));
  // Only what is not kept yet: a later visit hands over the same files, which must not be fetched again.
  // The message's port, when it has one, hears when this is done (the browser tests wait for it).
  event.waitUntil(
    caches
      .open(version)
      .then((cache) =>
        Promise.all(urls.map((url) => cache.match(url).then((kept) => kept ?? cache.add(url).catch(() => {})))).then(() =>
          oneAtATime(() => commitShell(cache).then(() => pruneOtherReleases(cache))),
        ),
      )
      .finally(() => event.ports[0]?.postMessage('done')),
  );
});

/**
 * At a page's hand-over (its first is sent once per page load), deletes the kept files that are not
 * this release's, only when none can still be needed:
 * - no page is pending (a page, maybe of a newer release, is still having its files kept);
 * - the kept shell names this release's files only (an older shell starts offline only with its own);
 * - no other page of the app is open (an older page may yet load a screen it has not opened).
 * A file's name is its content's hash, so a file a release shares with the one before stays. Only
 * files kept before the checks are deleted: a page opening meanwhile may be keeping a newer release's.
 */
async function pruneOtherReleases(cache) {
  if (buildAssets.length === 0) return;
  const current = new Set(buildAssets);
  const kept = await cache.keys();
  if (await cache.match(pendingShell)) return;
  const keptShell = await cache.match(shell);
  if (!keptShell) return;
  const shellFiles = filesOf(await keptShell.text());
  if (shellFiles.length === 0 || shellFiles.some((path) => !current.has(path))) return;
  const pages = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  if (pages.length > 1) return;
  const older = kept.filter((request) => {
    const url = new URL(request.url);
    return isAsset(url) && !current.has(url.pathname);
  });
  await Promise.all(older.map((request) => cache.delete(request)));
}

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== version).map((key) => caches.delete(key))))
      .then(() => self.registration.navigationPreload?.enable())
      .then(() => self.clients.claim()),
  );
});

/**
 * How long a page may take from the network before the kept shell opens instead (Workbox's
 * NetworkFirst offers such a timeout, `networkTimeoutSeconds`). On a weak signal the browser would
 * otherwise wait a minute or more, a blank screen, although the app is on the phone and shows its
 * last-known balance.
 */
const slowNetworkMs = 4000;

/**
 * A page: the network's answer; the kept shell when there is one and the network fails, answers a
 * server error (a proxy's 502, a deploy's 503: the app then says what it can), or has not answered
 * within slowNetworkMs. With no shell kept, the network's answer whatever it is.
 */
function pageOrShell(answered) {
  const shellIfKept = () => caches.match(shell);
  const fromNetwork = answered.then(
    (response) => (response.status >= 500 ? shellIfKept().then((kept) => kept ?? response) : response),
    () => shellIfKept().then((kept) => kept ?? Response.error()),
  );
  let timer;
  const afterWaiting = new Promise((resolve) => (timer = setTimeout(resolve, slowNetworkMs)))
    .then(shellIfKept)
    .then((kept) => kept ?? fromNetwork);
  // The network answered in time: no wait to finish, no shell to look up.
  fromNetwork.then(() => clearTimeout(timer));
  return Promise.race([fromNetwork, afterWaiting]);
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;

  // Framed, the app is embedded: the companion app keeps its state, and the app keeps nothing on the
  // phone, so its page is neither taken from nor kept as the shell (a worker a standalone visit
  // registered on this browser controls the frame too: the same origin).
  if (request.mode === 'navigate' && request.destination === 'iframe') return;

  if (request.mode === 'navigate') {
    // The page's request starts while the worker itself starts (navigation preload): on a slow phone
    // a worker takes a moment to start, and every page comes through it.
    const answered = Promise.resolve(event.preloadResponse).then((preloaded) => preloaded ?? fetch(request));
    // Another address (a PDF or JSON opened in a tab) is the network's answer as it is: only the app's
    // own pages (as the server tells them: no file extension, not /api, /cms or /sandbox) are the shell.
    if (!isAppPage(url)) {
      event.respondWith(answered);
      return;
    }
    // The page is kept whichever answers first (the kept shell may): the worker stays alive until it is
    // stored, or a busy phone may stop it first.
    event.waitUntil(
      answered.then(
        (response) => {
          // Only the app's page, as the server sends it (not a proxy's error or sign-in page in its place).
          if (!response.ok || !response.headers.get('content-type')?.includes('text/html')) return undefined;
          const copy = response.clone();
          return caches.open(version).then((cache) => keepPage(cache, copy));
        },
        () => undefined,
      ),
    );
    event.respondWith(pageOrShell(answered));
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
              event.waitUntil(caches.open(version).then((cache) => cache.put(request, copy).then(() => oneAtATime(() => commitShell(cache)))));
            }
            return response;
          }),
      ),
    );
  }
});
