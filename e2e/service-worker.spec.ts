/**
 * The service worker (public/sw.js) keeps the app's files for offline starts. A page loaded from the
 * network becomes the shell the app starts from offline only once its files are kept; an older
 * release's files are deleted only once nothing can need them: not while a page is pending, not while
 * another page of the app is open, not while the kept shell is an older release's page. A page the
 * network answers with a server error, or not soon enough, opens from the kept shell. The activity
 * screens' files are kept at install, so activity opens offline on a visit that never opened it. Each
 * check fails when its guard is taken out of the worker.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { ActivityPage, TransactionDetailPage } from './pages/activity/ActivityPage.ts';
import { ErrorPage } from './pages/ErrorPage.ts';
import { SignInPage } from './pages/session/SignInPage.ts';
import { appURL, companionHostURL } from './support/origins.ts';
import { expectAppFilesKept, workerCache } from './support/serviceWorker.ts';

// The service worker is what this spec tests (the browser tests block it elsewhere: playwright.config.ts).
test.use({ serviceWorkers: 'allow' });

/** A file of an older release, as the worker would have kept it. */
const olderFile = '/assets/older-release-0000.js';
/** A file of a newer release. */
const newerFile = '/assets/newer-release-0000.js';
const webRoot = process.env.WEB_ROOT || 'dist';

/** Opens sign-in, then waits until the worker controls the page and keeps every file the page loaded. */
async function openWithFilesKept(page: Page): Promise<void> {
  await SignInPage.open(page);
  await expectAppFilesKept(page);
}

/** Hands the worker nothing new and waits until it has done what a hand-over does (the shell, then pruning). */
function handOver(page: Page): Promise<void> {
  return page.evaluate(
    () =>
      new Promise<void>((done) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => done();
        navigator.serviceWorker.controller!.postMessage({ type: 'cache-assets', urls: [] }, [channel.port2]);
      }),
  );
}

/** Puts a file into the worker's cache, as if a page had loaded it. */
const keep = (page: Page, file: string) =>
  page.evaluate(async ({ name, file }) => (await caches.open(name)).put(file, new Response(`// ${file}`)), { name: workerCache, file });

/**
 * A page naming `file`, loaded from the network and pending until its files are kept: a page naming
 * that one script, or (`startsTheApp`) the kept shell with `file` preloaded besides, which still starts
 * the app if the worker ever opens it (a reload slower than the worker's wait for the network does).
 */
const pendingPage = (page: Page, file: string, { startsTheApp = false } = {}) =>
  page.evaluate(
    async ({ name, file, startsTheApp }) => {
      const cache = await caches.open(name);
      const html = startsTheApp
        ? (await (await cache.match('/index.html'))!.text()).replace('</head>', `<link rel="modulepreload" href="${file}"></head>`)
        : `<!doctype html><script type="module" src="${file}"></script>`;
      await cache.put('/index.html?pending', new Response(html, { headers: { 'content-type': 'text/html' } }));
    },
    { name: workerCache, file, startsTheApp },
  );

const isKept = (page: Page, file: string) =>
  page.evaluate(async ({ name, file }) => (await (await caches.open(name)).match(file)) !== undefined, { name: workerCache, file });
const keptShell = (page: Page) => page.evaluate(async (name) => (await (await caches.open(name)).match('/index.html'))?.text(), workerCache);
const entryOf = (page: Page) => page.evaluate(() => new URL(document.querySelector<HTMLScriptElement>('script[type="module"]')!.src).pathname);

test('the worker is given every file of this release, and nothing else', async ({ request }) => {
  const worker = await (await request.get('/sw.js')).text();
  const listed = JSON.parse(/const buildAssets = (\[.*?\]);/.exec(worker)?.[1] ?? 'null') as string[] | null;
  const built = readdirSync(path.join(webRoot, 'assets'))
    .filter((file) => !/\.(br|gz)$/.test(file))
    .map((file) => `/assets/${file}`);
  expect(listed === null ? null : [...listed].sort()).toEqual([...built].sort());
  // The served worker is the built one (the server changes nothing in it).
  expect(worker).toBe(readFileSync(path.join(webRoot, 'sw.js'), 'utf8'));
});

test("while the kept shell is an older release's page its files stay; once this release's is kept they go, and the app starts offline", async ({ page, context }) => {
  await openWithFilesKept(page);
  const entry = await entryOf(page);

  // An older release's page becomes the shell once its file is kept (pending first, so that no hand-over
  // meanwhile finds the file without the page naming it).
  await pendingPage(page, olderFile, { startsTheApp: true });
  await keep(page, olderFile);
  await handOver(page);
  expect(await keptShell(page)).toContain(olderFile);
  expect(await isKept(page, olderFile), 'kept while the kept shell is the older release').toBe(true);

  // Loaded from the network, this release's page is the shell again (its files are kept); then the older file goes.
  await page.reload();
  await new SignInPage(page).expectShown();
  await expect.poll(() => keptShell(page), { message: "this release's page is the shell" }).not.toContain(olderFile);
  expect(await keptShell(page)).toContain(entry);
  await expect.poll(async () => (await handOver(page), isKept(page, olderFile)), { message: 'the older file is deleted' }).toBe(false);
  expect(await isKept(page, entry), "this release's files stay").toBe(true);

  await context.setOffline(true);
  await page.reload();
  await new SignInPage(page).expectShown();
});

test('both languages are kept: offline, the other language can be chosen, and the app then starts in it', async ({ page, context, request }) => {
  const catalogues = JSON.parse(/const catalogues = (\[.*?\]);/.exec(await (await request.get('/sw.js')).text())?.[1] ?? '[]') as string[];
  expect(catalogues).toHaveLength(2);
  await openWithFilesKept(page);
  for (const file of catalogues) await expect.poll(() => isKept(page, file), { message: `${file} kept` }).toBe(true);

  // Before, only the language in use was kept: the switch failed offline, and the next start stayed on the splash.
  await context.setOffline(true);
  const spanish = await new SignInPage(page).switchLanguage();
  await page.reload();
  await spanish.expectLanguage();
  await spanish.expectShown();
});

test('activity and a detail open offline although they were never opened online: their files are kept at install', async ({ page, context, request }) => {
  const built = JSON.parse(readFileSync(path.join(webRoot, '.vite', 'manifest.json'), 'utf8')) as Record<string, { file: string }>;
  const worker = await (await request.get('/sw.js')).text();
  const listed = JSON.parse(/const activityScreens = (\[.*?\]);/.exec(worker)?.[1] ?? '[]') as string[];
  const screens = ['activityScreensOf.ts', 'TransactionsView.tsx', 'TransactionDetailView.tsx'].map((module) => `/${built[`src/features/activity/${module}`]!.file}`);
  for (const file of screens) expect(listed, 'the worker fetches the activity screens ahead').toContain(file);
  const release = JSON.parse(/const buildAssets = (\[.*?\]);/.exec(worker)?.[1] ?? '[]') as string[];
  for (const file of listed) expect(release, "fetched ahead: this release's files only").toContain(file);

  const home = await (await SignInPage.open(page)).signIn();
  await expectAppFilesKept(page);
  for (const file of listed) await expect.poll(() => isKept(page, file), { message: `${file} kept` }).toBe(true);
  const loaded = await page.evaluate(() => performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname));
  expect(loaded.filter((file) => screens.includes(file)), 'the page itself never loaded activity').toEqual([]);

  // Before, the worker kept only what the page had loaded: activity was the error screen ("We couldn't
  // open this screen"), its code never downloaded.
  await context.setOffline(true);
  await home.screen.getByRole('link', { name: 'See all activity' }).click();
  const activity = new ActivityPage(page);
  await expect(activity.screen.getByRole('heading', { level: 1, name: 'Activity' })).toBeVisible();
  // No copy of the activity was kept (it was never loaded): home's recent rows are the newest activity
  // known, shown as of when home fetched them, with no error modal.
  await expect(activity.screen.getByText(/We couldn't get your latest account information/).first()).toBeVisible();
  const recent = activity.screen.locator('a[href^="/transactions/detail"]');
  await expect(recent.first()).toBeVisible();
  await expect(new ErrorPage(page, 'en').heading).toHaveCount(0);
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // A transaction of those rows: its detail opens from the copy, with no error screen.
  await recent.first().click();
  const detail = new TransactionDetailPage(page);
  await expect(page).toHaveURL((url) => url.pathname === '/transactions/detail');
  await expect(detail.value('Status')).toBeVisible();
  await expect(detail.amount).toBeVisible();
  await expect(new ErrorPage(page, 'en').heading).toHaveCount(0);

  // Back on home, a recent transaction's detail opens from the same copy.
  await page.goBack();
  await activity.screen.getByRole('link', { name: 'Back to home' }).click();
  await home.expectShown();
  await home.screen.locator('a[href^="/transactions/detail"]').first().click();
  await expect(page).toHaveURL((url) => url.pathname === '/transactions/detail');
  await expect(detail.value('Status')).toBeVisible();
  await expect(detail.amount).toBeVisible();
  await expect(new ErrorPage(page, 'en').heading).toHaveCount(0);
});

test("an older release's files stay while another page of the app is open, and go once it is closed", async ({ page, context }) => {
  await openWithFilesKept(page);
  const other = await context.newPage();
  await SignInPage.open(other);
  await keep(page, olderFile);
  await handOver(page);
  expect(await isKept(page, olderFile), 'kept while another page is open').toBe(true);

  await other.close();
  await expect.poll(async () => (await handOver(page), isKept(page, olderFile)), { message: 'the older file is deleted' }).toBe(false);
});

test('a page whose files have not all been kept is not the shell the app starts from offline, and nothing is deleted meanwhile', async ({ page, context }) => {
  await openWithFilesKept(page);
  const shellBefore = await keptShell(page);

  // A newer release's page arrived, but its entry script did not (a network that dropped it halfway).
  await pendingPage(page, newerFile);
  await keep(page, olderFile);
  await handOver(page);
  expect(await keptShell(page), 'the shell with its files stays the one kept').toBe(shellBefore);
  expect(await isKept(page, olderFile), 'nothing is deleted while a page is pending').toBe(true);
  await context.setOffline(true);
  await page.reload();
  await new SignInPage(page).expectShown();
  await context.setOffline(false);

  // Once its file is there, it is the shell.
  await keep(page, newerFile);
  await handOver(page);
  expect(await keptShell(page)).toContain(newerFile);
});

test('a page the network answers with a server error, or has not answered after a few seconds, opens from the kept shell; other addresses are what the server sends', async ({ page, context }) => {
  await openWithFilesKept(page);
  // The browser starts the page's request beside the worker (navigation preload), where no route of the
  // test can answer it: with preload off, the worker fetches the page itself, and the test answers that
  // (at the context: the page's request goes to the worker). Both requests end in the same code.
  expect(await page.evaluate(async () => (await (await navigator.serviceWorker.ready).navigationPreload.getState()).enabled), 'navigation preload is on').toBe(true);
  await page.evaluate(async () => (await navigator.serviceWorker.ready).navigationPreload.disable());
  const signInPage = (url: URL) => url.pathname === '/signin';

  // A proxy in front of the server answers 502.
  await context.route(signInPage, (route) => route.fulfill({ status: 502, contentType: 'text/plain', body: 'Bad gateway' }));
  await page.reload();
  await new SignInPage(page).expectShown();
  await context.unroute(signInPage);

  // A weak signal: the server's page is on its way for as long as the test lasts.
  let answer = () => {};
  const answered = new Promise<void>((resolve) => (answer = resolve));
  let asked = false;
  await context.route(signInPage, async (route) => {
    asked = true;
    await answered;
    await route.continue().catch(() => {});
  });
  try {
    await page.reload();
    await new SignInPage(page).expectShown();
    expect(asked, 'the network was asked for the page').toBe(true);
  } finally {
    answer();
  }

  // Another address opened in a tab (the API's description) is what the server sends, its errors too:
  // never the app in its place.
  const description = (url: URL) => url.pathname === '/api/v1/openapi.json';
  await context.route(description, (route) => route.fulfill({ status: 502, contentType: 'text/plain', body: 'Bad gateway' }));
  const failed = await page.goto('/api/v1/openapi.json');
  expect(failed?.status()).toBe(502);
  await expect(page.locator('body')).toHaveText('Bad gateway');
  await context.unroute(description);
  const described = await page.goto('/api/v1/openapi.json');
  expect(described?.headers()['content-type']).toContain('application/json');
  expect(await keptShell(page), 'the shell is still the app').toContain('id="root"');
});

test('embedded in the companion app on a browser where a standalone visit left the worker, the framed page comes from the network, not the kept shell', async ({ page }) => {
  await openWithFilesKept(page);
  const framedPage = page.waitForResponse((response) => response.request().isNavigationRequest() && response.frame() !== page.mainFrame() && response.url().startsWith(appURL));
  await page.goto(companionHostURL);
  const response = await framedPage;
  expect(response.status()).toBe(200);
  expect(response.fromServiceWorker(), 'the worker left the framed page alone').toBe(false);
});
