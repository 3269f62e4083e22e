/**
 * "Balance shown at": a cold, signed-in `/home` over a slow mobile network, timed from the navigation's
 * start to the balance on the screen, with when the splash was painted (first contentful paint) and when
 * the page sent GET /api/v1/home. Lighthouse cannot show this (its LCP is the splash); it is what a
 * cardholder on a slow connection waits for. Reported, no budget. Each load is a new browser context:
 * nothing cached.
 */
import { chromium } from '@playwright/test';
import { chromiumFlags, chromiumPath } from './lighthouse.ts';

/** A slow mobile connection: 300 ms round trips, 1.6 Mbit/s down, 750 kbit/s up (Chrome DevTools' "Slow 4G" is 150 ms). */
export const slowNetwork = { latencyMs: 300, downloadBitsPerSecond: 1.6e6, uploadBitsPerSecond: 750e3 };

export type BalanceShown = { splashShownMs: number; homeCallSentMs: number; balanceShownMs: number };

/** `storage`: localStorage entries written on the origin first (the signed-in state). */
export async function measureBalanceShown(origin: string, storage: Record<string, string>): Promise<BalanceShown> {
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumFlags });
  try {
    const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
    const page = await context.newPage();
    await page.goto(`${origin}/favicon-bench-none.txt`);
    await page.evaluate((entries) => entries.forEach(([key, value]) => localStorage.setItem(key, value)), Object.entries(storage));
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: slowNetwork.latencyMs,
      downloadThroughput: slowNetwork.downloadBitsPerSecond / 8,
      uploadThroughput: slowNetwork.uploadBitsPerSecond / 8,
    });
    await page.goto(`${origin}/home`, { waitUntil: 'commit' });
    await page.getByTestId('balance').waitFor({ timeout: 120_000 });
    // Both from the navigation's start (performance.timeOrigin).
    return await page.evaluate(() => {
      const homeCall = performance.getEntriesByType('resource').find((entry) => new URL(entry.name).pathname === '/api/v1/home');
      const firstPaint = performance.getEntriesByName('first-contentful-paint')[0];
      return {
        splashShownMs: firstPaint?.startTime ?? Number.NaN,
        homeCallSentMs: homeCall?.startTime ?? Number.NaN,
        balanceShownMs: performance.now(),
      };
    });
  } finally {
    await browser.close();
  }
}
