/**
 * Repeat visit: a route loaded once, then opened again in the same browser (HTTP cache kept). Sums
 * the bytes that crossed the network the second time (CDP Network.loadingFinished encodedDataLength:
 * headers and body), apart from API and content JSON, which the budget leaves out.
 */
import { chromium } from '@playwright/test';
import { chromiumFlags, chromiumPath } from './lighthouse.ts';

export type RepeatVisit = { route: string; bytes: number; requests: string[] };

/** `storage`: localStorage entries written on the origin before the first visit (a signed-in state). */
export async function measureRepeatVisit(origin: string, route: string, storage: Record<string, string> = {}): Promise<RepeatVisit> {
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumFlags.filter((flag) => flag !== '--headless') });
  try {
    const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
    const page = await context.newPage();
    if (Object.keys(storage).length > 0) {
      await page.goto(`${origin}/favicon-bench-none.txt`);
      await page.evaluate((entries) => entries.forEach(([key, value]) => localStorage.setItem(key, value)), Object.entries(storage));
    }
    await page.goto(`${origin}${route}`, { waitUntil: 'networkidle' });

    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const urls = new Map<string, string>();
    const counted: { url: string; bytes: number }[] = [];
    cdp.on('Network.requestWillBeSent', (event) => urls.set(event.requestId, event.request.url));
    cdp.on('Network.loadingFinished', (event) => {
      const url = urls.get(event.requestId) ?? '';
      if (!/^\/(api|cms)\//.test(new URL(url, origin).pathname)) counted.push({ url, bytes: event.encodedDataLength });
    });
    await page.goto(`${origin}${route}`, { waitUntil: 'networkidle' });
    await cdp.detach();
    return {
      route,
      bytes: counted.reduce((sum, request) => sum + request.bytes, 0),
      requests: counted.filter((request) => request.bytes > 0).map((request) => `${new URL(request.url).pathname} ${request.bytes} B`),
    };
  } finally {
    await browser.close();
  }
}
