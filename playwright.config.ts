/**
 * End-to-end tests against the real server (card API + built web app from dist/) on a fresh
 * PGlite database under .data/e2e-<port>, in Debian's Chromium at a 360 × 740 phone viewport. The same
 * process runs the sandbox companion host on its own origin (e2e/support/origins.ts), framing the app.
 * Build the app first: `npx vite build && npx playwright test`.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { appPort, appURL, companionHostPort, companionHostURL, processorPort, processorURL } from './e2e/support/origins.ts';

const root = path.dirname(fileURLToPath(import.meta.url));
const baseURL = appURL;

// The build the server serves: dist/, or WEB_ROOT (the server reads the same variable), so a build
// made with `npx vite build --outDir <dir>` can be tested beside another.
const webRoot = process.env.WEB_ROOT || 'dist';
const builtIndex = path.join(root, webRoot, 'index.html');
if (!existsSync(builtIndex)) {
  // Without a build the server answers 404 for app routes and the webServer would time out.
  throw new Error(`${webRoot}/index.html is missing: run \`npx vite build\` before \`npx playwright test\`.`);
}
if (!existsSync(path.join(root, webRoot, 'server', 'partners', 'companion-host', 'index.html'))) {
  // The companion host would answer 503 and the webServer would time out.
  throw new Error(`${webRoot}/ has no companion host page (an older build): run \`npx vite build\` again first.`);
}
// Page models read the text they look for from locales/*/messages.po; a build older than the
// catalogues serves other text and every Spanish selector would fail with a puzzling "not found".
const builtAt = statSync(builtIndex).mtimeMs;
const localesDir = path.join(root, 'locales');
for (const locale of readdirSync(localesDir)) {
  const catalogue = path.join(localesDir, locale, 'messages.po');
  if (existsSync(catalogue) && statSync(catalogue).mtimeMs > builtAt) {
    throw new Error(`${path.relative(root, catalogue)} is newer than ${webRoot}/: run \`npx vite build\` again first.`);
  }
}

// Debian's headless shell, the browser Playwright itself runs headless (its own download cannot work
// here), when it is installed (scripts/test.sh installs it as root): the same Blink without the
// desktop browser's windows and extra processes, the browser tests in about half the time
// (docs/performance.md). Else Debian's Chromium.
const chromiumPath = existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium';

// One database per port, so two runs side by side (E2E_PORT) never share or delete each other's.
const dataDir = `.data/e2e-${appPort}`;

export default defineConfig({
  testDir: 'e2e',
  // The experiment config is global to the server: its spec runs alone, after every other spec.
  projects: [
    { name: 'app', testIgnore: /experiments\.spec\.ts/ },
    { name: 'experiments', testMatch: /experiments\.spec\.ts/, dependencies: ['app'] },
  ],
  outputDir: 'test-results',
  fullyParallel: true,
  // A stray `.only` fails the run anywhere (CI is not set by test.sh or .ci/run), as in vite.config.ts.
  forbidOnly: true,
  workers: 2,
  retries: 0,
  reporter: 'list',
  // Limits from measured need, not a guess. The slowest test, opening an account in the companion
  // frame (five screens, axe on each, then home), took 95 s beside one busy loop per core on a
  // 2-core machine that other work also shared (load average about 10); the 30 s limit killed it
  // and the browser under the tests after it. Twice that, rounded up: a hung test still fails in
  // three minutes, well inside the step's limit (scripts/test.sh). One expect waits for at most one
  // screen change with its API calls; the longest, the account opening after "Agree and open my
  // account", needed its own 15 s wait before, so every wait gets that.
  timeout: 180_000,
  expect: { timeout: 15_000 },
  use: {
    baseURL,
    browserName: 'chromium',
    // No service worker except in the specs that test it (service-worker, activity: offline starts and
    // the last-known copy), which allow it. Elsewhere its install and its copies of the app's files took a
    // twentieth of the run's CPU in every fresh context, for screens that do not depend on it
    // (docs/performance.md).
    serviceWorkers: 'block',
    viewport: { width: 360, height: 740 },
    isMobile: true,
    hasTouch: true,
    // The app picks Spanish when the browser prefers it; tests choose the language explicitly.
    locale: 'en-US',
    timezoneId: 'America/Los_Angeles',
    // A failed test keeps its trace: its actions, console, network and errors. Without the DOM snapshots
    // and screenshots taken at every action, which cost about a fifth of the run's time (docs/performance.md).
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: false, sources: false },
    screenshot: 'only-on-failure',
    // Chrome lets a page write to the clipboard after a tap; the headless shell asks for the permission.
    permissions: ['clipboard-write'],
    launchOptions: {
      executablePath: chromiumPath,
      args: [
        '--no-sandbox',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
        // No GPU process: pages are drawn in software either way here, and without it the browser
        // tests took about 8% less CPU (docs/performance.md).
        '--disable-gpu',
      ],
    },
  },
  webServer: {
    command: `rm -rf ${dataDir} && node --import tsx server/main.ts`,
    cwd: root,
    // The companion host starts after the app: once its page answers, both are up.
    url: `${companionHostURL}/`,
    env: {
      PORT: String(appPort),
      WEB_ROOT: webRoot,
      COMPANION_PORT: String(companionHostPort),
      // The host by both loopback names, as the sandbox's own default lists it.
      COMPANION_ORIGINS: `${companionHostURL},${companionHostURL.replace('localhost', '127.0.0.1')}`,
      PROCESSOR_PORT: String(processorPort),
      PROCESSOR_ORIGINS: `${processorURL},${processorURL.replace('localhost', '127.0.0.1')}`,
      DATA_DIR: dataDir,
      // npm test: the migrated database its unit tests made, when they made one (scripts/test.sh).
      ...(process.env.KEEP_MIGRATED_PGLITE_DUMP && existsSync(process.env.KEEP_MIGRATED_PGLITE_DUMP) && { PGLITE_DUMP: process.env.KEEP_MIGRATED_PGLITE_DUMP }),
      LOG_LEVEL: 'warn',
    },
    reuseExistingServer: false,
    // Migrations and seed on a fresh PGlite: up within 22-37 s under that load; about three times that.
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
