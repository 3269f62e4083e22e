/** What the browser tests read of the service worker (public/sw.js): its cache. */
import { expect, type Page } from '@playwright/test';

/** The worker's one cache (public/sw.js `version`). */
export const workerCache = 'providers-card-shell-v1';

/**
 * Waits until the worker controls the page and keeps the shell and every file the page loaded. A busy
 * machine may take a while to fetch and store them: the wait follows the work, not a guess of its speed.
 */
export async function expectAppFilesKept(page: Page): Promise<void> {
  await expect
    .poll(
      () =>
        page.evaluate(async (name) => {
          if (!navigator.serviceWorker.controller) return ['(no worker yet)'];
          const cache = await caches.open(name);
          const files = ['/index.html', ...performance.getEntriesByType('resource').map((entry) => entry.name).filter((url) => url.includes('/assets/'))];
          const kept = await Promise.all(files.map((url) => cache.match(url)));
          return files.filter((_, index) => !kept[index]);
        }, workerCache),
      { message: "the service worker keeps the app's files", timeout: 90_000 },
    )
    .toEqual([]);
}
