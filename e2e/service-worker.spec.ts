/**
 * The service worker keeps the app's files for offline starts and deletes an older release's files
 * only once nothing can need them (public/sw.js pruneOtherReleases): not while another page of the app
 * is open, not while the kept shell is an older release's; then, with this release's shell kept and
 * one page open, they go, and the app still starts offline.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { SignInPage } from './pages/session/SignInPage.ts';

const cacheName = 'providers-card-shell-v1';
/** A file of an older release, as the worker would have kept it. */
const olderFile = '/assets/older-release-0000.js';
const webRoot = process.env.WEB_ROOT || 'dist';

/** Once the worker controls the page and keeps every file the page loaded. */
async function filesKept(page: Page): Promise<void> {
  await expect
    .poll(
      () =>
        page.evaluate(async () => {
          if (!navigator.serviceWorker.controller) return ['(no worker yet)'];
          const cache = await caches.open('providers-card-shell-v1');
          const files = ['/index.html', ...performance.getEntriesByType('resource').map((entry) => entry.name).filter((url) => url.includes('/assets/'))];
          const kept = await Promise.all(files.map((url) => cache.match(url)));
          return files.filter((_, index) => !kept[index]);
        }),
      { message: "the service worker keeps the app's files", timeout: 90_000 },
    )
    .toEqual([]);
}

/** Hands the worker nothing new and waits until it has done what a hand-over does (keeping, then pruning). */
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

const isKept = (page: Page, file: string) =>
  page.evaluate(async ({ name, file }) => (await (await caches.open(name)).match(file)) !== undefined, { name: cacheName, file });

test("the worker is given every file of this release, and nothing else", async ({ request }) => {
  const worker = await (await request.get('/sw.js')).text();
  const listed = JSON.parse(/const buildAssets = (\[.*?\]);/.exec(worker)?.[1] ?? 'null') as string[] | null;
  const built = readdirSync(path.join(webRoot, 'assets'))
    .filter((file) => !/\.(br|gz)$/.test(file))
    .map((file) => `/assets/${file}`);
  expect(listed === null ? null : [...listed].sort()).toEqual([...built].sort());
  // The served worker is the built one (the server changes nothing in it).
  expect(worker).toBe(readFileSync(path.join(webRoot, 'sw.js'), 'utf8'));
});

test("an older release's files are deleted only once nothing can need them; the app then still starts offline", async ({ page, context }) => {
  await SignInPage.open(page);
  await filesKept(page);
  const entry = await page.evaluate(() => new URL(document.querySelector<HTMLScriptElement>('script[type="module"]')!.src).pathname);

  // Another page of the app is open: it may be of the older release, and still load a screen from it.
  const other = await context.newPage();
  await SignInPage.open(other);
  await page.evaluate(async ({ name, file }) => (await caches.open(name)).put(file, new Response('// an older release')), { name: cacheName, file: olderFile });
  // Loaded again, the other page's shell is kept again: the worker prunes at the next hand-over, not
  // remembering a pass that ran before this file was there.
  await other.reload();
  await new SignInPage(other).expectShown();
  await handOver(page);
  expect(await isKept(page, olderFile), 'kept while another page is open').toBe(true);

  // The kept shell is the older release's (it was kept last): offline, it starts only with its own files.
  const thisShell = await page.evaluate(async (name) => (await (await caches.open(name)).match('/index.html'))!.text(), cacheName);
  await page.evaluate(
    async ({ name, file }) =>
      (await caches.open(name)).put('/index.html', new Response(`<!doctype html><script type="module" src="${file}"></script>`, { headers: { 'content-type': 'text/html' } })),
    { name: cacheName, file: olderFile },
  );
  await other.close();
  await handOver(page);
  expect(await isKept(page, olderFile), 'kept while the kept shell is the older release').toBe(true);

  // Loaded from the network, this release's shell is kept again; with one page open the older file goes.
  await page.reload();
  await new SignInPage(page).expectShown();
  await expect.poll(() => page.evaluate(async (name) => (await (await caches.open(name)).match('/index.html'))?.text(), cacheName)).toContain(entry);
  expect(thisShell).toContain(entry);
  await expect.poll(async () => (await handOver(page), isKept(page, olderFile)), { message: 'the older file is deleted' }).toBe(false);
  expect(await isKept(page, entry), "this release's files stay").toBe(true);

  await context.setOffline(true);
  await page.reload();
  await new SignInPage(page).expectShown();
});

test('a page whose files have not all been kept does not become the shell the app starts from offline', async ({ page, context }) => {
  await SignInPage.open(page);
  await filesKept(page);
  const keptShell = () => page.evaluate(async (name) => (await (await caches.open(name)).match('/index.html'))!.text(), cacheName);
  const shellBefore = await keptShell();

  // A newer release's page arrived, but its entry script did not (a network that dropped it halfway).
  const newerFile = '/assets/newer-release-0000.js';
  await page.evaluate(
    async ({ name, file }) =>
      (await caches.open(name)).put('/index.html?pending', new Response(`<!doctype html><script type="module" src="${file}"></script>`, { headers: { 'content-type': 'text/html' } })),
    { name: cacheName, file: newerFile },
  );
  await handOver(page);
  expect(await keptShell(), 'the shell with its files stays the one kept').toBe(shellBefore);
  await context.setOffline(true);
  await page.reload();
  await new SignInPage(page).expectShown();
  await context.setOffline(false);

  // Once its files are there, it is the shell.
  await page.evaluate(async ({ name, file }) => (await caches.open(name)).put(file, new Response('// a newer release')), { name: cacheName, file: newerFile });
  await handOver(page);
  expect(await keptShell()).toContain(newerFile);
});
