/**
 * Repeat visit: a route loaded once, then opened again in the same browser (HTTP cache kept). Sums
 * the bytes the server sent the second time (headers and bodies, as they crossed the network: the
 * server's own count, scripts/bench/appServer.ts `recordSent`), apart from API and content JSON,
 * which the budget leaves out. Counted at the server, the page's requests that the service worker
 * makes (its navigation preload of the page itself) are in the sum: the page's own network events
 * do not show them.
 */
import { chromium } from '@playwright/test';
import type { SentResponse } from './appServer.ts';
import { chromiumFlags, chromiumPath } from './lighthouse.ts';

export type RepeatVisit = { route: string; bytes: number; requests: string[] };

/**
 * `sent`: the server's record of its responses (startAppServer with `recordSent`). `storage`:
 * localStorage entries written on the origin before the first visit (a signed-in state).
 */
export async function measureRepeatVisit(
  origin: string,
  sent: SentResponse[],
  route: string,
  storage: Record<string, string> = {},
): Promise<RepeatVisit> {
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumFlags.filter((flag) => flag !== '--headless') });
  try {
    const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
    const page = await context.newPage();
    if (Object.keys(storage).length > 0) {
      await page.goto(`${origin}/favicon-bench-none.txt`);
      await page.evaluate((entries) => entries.forEach(([key, value]) => localStorage.setItem(key, value)), Object.entries(storage));
    }
    await page.goto(`${origin}${route}`, { waitUntil: 'networkidle' });
    // The first visit is over once the service worker controls the page and keeps the page as its
    // shell (it installs after load, when the phone is idle) and the server has answered its requests:
    // otherwise they would be counted in the repeat, which might also not go through the worker yet.
    await page.waitForFunction(
      async () => navigator.serviceWorker.controller !== null && (await caches.match('/index.html')) !== undefined,
      undefined,
      { polling: 100, timeout: 60_000 },
    );
    for (let count = -1; count !== sent.length; ) {
      count = sent.length;
      await new Promise((quiet) => setTimeout(quiet, 1000));
    }

    const firstOfRepeat = sent.length;
    await page.goto(`${origin}${route}`, { waitUntil: 'networkidle' });
    const counted = sent.slice(firstOfRepeat).filter((response) => !/^\/(api|cms)\//.test(response.path));
    return {
      route,
      bytes: counted.reduce((sum, response) => sum + response.bytes, 0),
      requests: counted.map((response) => `${response.path} ${response.bytes} B`),
    };
  } finally {
    await browser.close();
  }
}
