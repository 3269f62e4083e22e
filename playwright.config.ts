/**
 * End-to-end tests against the real server (card API + built web app from dist/) on a fresh
 * PGlite database under .data/e2e, in Debian's Chromium at a 360 × 740 phone viewport.
 * Build the app first: `npx vite build && npx playwright test`.
 */
import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';

const port = 8181;
const baseURL = `http://localhost:${port}`;

if (!existsSync('dist/index.html')) {
  // Without a build the server only answers 404 for app routes and the webServer would time out.
  throw new Error('dist/index.html is missing: run `npx vite build` before `npx playwright test`.');
}

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  workers: 2,
  retries: 0,
  reporter: 'list',
  timeout: 30_000,
  expect: { timeout: 5_000 },
  use: {
    baseURL,
    browserName: 'chromium',
    viewport: { width: 360, height: 740 },
    isMobile: true,
    hasTouch: true,
    // The app picks Spanish when the browser prefers it; tests choose the language explicitly.
    locale: 'en-US',
    timezoneId: 'America/Los_Angeles',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  webServer: {
    command: 'rm -rf .data/e2e && node --import tsx server/main.ts',
    url: `${baseURL}/signin`,
    env: { PORT: String(port), DATA_DIR: '.data/e2e', LOG_LEVEL: 'warn' },
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
