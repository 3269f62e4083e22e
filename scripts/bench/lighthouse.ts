/**
 * Lighthouse (mobile preset, simulated throttling, performance only) against the running app,
 * in a Debian Chromium driven by Playwright and exposed to Lighthouse over a debugging port.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import lighthouse from 'lighthouse';

export const chromiumPath = '/usr/bin/chromium';
export const chromiumFlags = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** Lighthouse's whole result of one run. */
export type LighthouseReport = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];

export type LighthouseRun = {
  url: string;
  /** The whole result, for Lighthouse's own choice of the median run (computeMedianRun). */
  report: LighthouseReport;
  finalUrl: string;
  score: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  fcpMs: number;
  /** Bytes over the wire for the whole load (network-requests audit). */
  transferBytes: number;
  /** API calls the page made during the load, e.g. "GET /api/v1/home 200" (status only). */
  apiCalls: string[];
  /** Lighthouse's estimate of what serving text compressed would save (uses-text-compression). */
  compressionSavings: { bytes: number; lcpMs: number } | undefined;
  /** The main thread's long tasks as observed (unthrottled), from the long-tasks audit: where TBT comes from. */
  longTasks: { url: string; startMs: number; durationMs: number }[];
  runtimeError?: string;
  warnings: string[];
};

export type SignedInState = {
  schemaVersion: 1;
  accessToken: string;
  refreshToken: string;
  fingerprint: string;
  deviceUUID: string;
  isInternal: boolean;
  ebtAccountId: null;
  locale: 'en';
};

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export type LighthouseSession = {
  /**
   * One cold-cache Lighthouse navigation in a browser of its own; storage (localStorage) is kept from
   * run to run. `cpuSlowdown` replaces the mobile preset's 4× CPU throttle (the headroom run asks for more).
   */
  run: (url: string, cpuSlowdown?: number) => Promise<LighthouseRun>;
  /** Writes the app's persisted session into localStorage on `origin`. */
  signIn: (origin: string, state: SignedInState) => Promise<void>;
  close: () => Promise<void>;
};

/**
 * A run Lighthouse could not measure: a metric without a value (seen once in about 100 runs at 6.4×:
 * no largest contentful paint recorded). The caller runs it again rather than losing the section.
 */
export class UnmeasuredRun extends Error {}

/**
 * Every run starts a new browser on the same profile, as Lighthouse's own CLI starts a new Chrome per
 * run. In one browser reused across runs, the next navigation's renderer was still busy with the
 * previous page (a 40–60 ms task of V8 discarding its compiled code, before the new document even
 * commits); Lighthouse counted that task against the page under test, up to about 230 ms of TBT at 4×.
 */
export async function openLighthouseSession(): Promise<LighthouseSession> {
  const userDataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-chromium-'));
  const removeProfile = () => rmSync(userDataDir, { recursive: true, force: true });
  process.once('exit', removeProfile); // also on Ctrl-C; Playwright itself kills the browser on exit
  async function withBrowser<T>(body: (browser: { page: Page; debugPort: number }) => Promise<T>): Promise<T> {
    const debugPort = await freePort();
    const context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: chromiumPath,
      headless: true,
      viewport: null,
      args: [...chromiumFlags, `--remote-debugging-port=${debugPort}`],
    });
    try {
      return await body({ page: context.pages()[0] ?? (await context.newPage()), debugPort });
    } finally {
      await context.close().catch(() => undefined);
    }
  }

  return {
    async signIn(origin, state) {
      await withBrowser(async ({ page }) => {
        // A static asset path: the app does not boot, so it cannot overwrite what we write.
        await page.goto(`${origin}/favicon-bench-none.txt`);
        await page.evaluate((value) => localStorage.setItem('providers-card:state', value), JSON.stringify(state));
      });
    },
    run: (url, cpuSlowdown) =>
      withBrowser(async ({ debugPort }) => {
        // Lighthouse's own storage reset makes every run a cold first visit: it clears the HTTP cache,
        // the service worker and its caches, and keeps localStorage (its clearStorageTypes), so /home
        // stays signed in.
        const result = await lighthouse(url, {
          port: debugPort,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance'],
          ...(cpuSlowdown !== undefined && { throttling: { cpuSlowdownMultiplier: cpuSlowdown } }),
        });
        if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
        const { lhr } = result;
        const numeric = (id: string) => {
          const value = lhr.audits[id]?.numericValue;
          if (typeof value !== 'number') {
            throw new UnmeasuredRun(`Lighthouse audit ${id} has no value for ${url}${lhr.runtimeError ? ` (${lhr.runtimeError.message})` : ''}`);
          }
          return value;
        };
        const requests = (lhr.audits['network-requests']?.details as
            | { items?: Array<{ url: string; transferSize?: number; statusCode?: number }> }
            | undefined)?.items ?? [];
        const compression = lhr.audits['uses-text-compression']?.details as
          | { overallSavingsBytes?: number; debugData?: { metricSavings?: { LCP?: number } } }
          | undefined;
        return {
          url,
          report: lhr,
          transferBytes: requests.reduce((sum, request) => sum + (request.transferSize ?? 0), 0),
          apiCalls: requests
            .map((request) => ({ path: new URL(request.url).pathname, status: request.statusCode }))
            .filter((request) => /^\/(api|cms)\//.test(request.path))
            .map((request) => `${request.path} ${request.status ?? '?'}`),
          compressionSavings:
            compression?.overallSavingsBytes !== undefined && compression.overallSavingsBytes > 0
              ? { bytes: compression.overallSavingsBytes, lcpMs: compression.debugData?.metricSavings?.LCP ?? 0 }
              : undefined,
          finalUrl: lhr.finalDisplayedUrl,
          score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
          lcpMs: numeric('largest-contentful-paint'),
          tbtMs: numeric('total-blocking-time'),
          cls: numeric('cumulative-layout-shift'),
          fcpMs: numeric('first-contentful-paint'),
          longTasks: ((lhr.audits['long-tasks']?.details as { items?: Array<{ url: string; startTime: number; duration: number }> } | undefined)?.items ?? [])
            .map((task) => ({ url: task.url, startMs: task.startTime, durationMs: task.duration })),
          runtimeError: lhr.runtimeError?.message,
          warnings: lhr.runWarnings,
        };
      }),
    async close() {
      removeProfile();
      process.off('exit', removeProfile);
    },
  };
}
