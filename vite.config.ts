/// <reference types="vitest/config" />
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { lingui } from '@lingui/vite-plugin';
import babel, { defineRolldownBabelPreset } from '@rolldown/plugin-babel';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));
/** Tests without a DOM: the card API, its contract, the catalogues, the formatters. */
const nodeTests = ['tests/{server,contract,i18n,format}/**/*.test.ts'];
const companionHostDir = `${root}server/partners/companion-host/`;
const companionCopy = '?companion-host';

/**
 * The sandbox companion host page is a second build input. Left alone, Rolldown would move what it
 * shares with the app (the module-preload polyfill, contract/hostProtocol.ts) into shared chunks and so
 * change the app's own output. This plugin gives the page private copies of the repo modules it
 * imports (ids suffixed `?companion-host`) and no polyfill (the page preloads nothing), so the app's
 * chunks are exactly what they would be without the page.
 */
function companionHostIsolation(): Plugin {
  const inCompanionGraph = (importer: string | undefined) =>
    importer !== undefined && (importer.startsWith(companionHostDir) || importer.endsWith(companionCopy));
  return {
    name: 'providers:companion-host-isolation',
    apply: 'build',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!inCompanionGraph(importer)) return null;
      if (source === 'vite/modulepreload-polyfill') return '\0companion-host:no-polyfill';
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!resolved || resolved.external || resolved.id.includes('\0') || resolved.id.includes('?')) return resolved;
      const isRepoModule = resolved.id.startsWith(root) && !resolved.id.includes('/node_modules/');
      return isRepoModule && !resolved.id.startsWith(companionHostDir) ? `${resolved.id}${companionCopy}` : resolved;
    },
    load(id) {
      if (id === '\0companion-host:no-polyfill') return '';
      if (id.endsWith(companionCopy)) return readFileSync(id.slice(0, -companionCopy.length), 'utf8');
      return null;
    },
  };
}

/**
 * The web app never reads a route table entry's `answers` (the statusCodes each HTTP status may carry:
 * the server's answer checks and the OpenAPI document read them), so the build leaves them out of the
 * app's chunks: about 170 B gzip of every first load (docs/performance.md, 2026-12-01). Each entry
 * writes them on one line, `answers: { 200: [0], 400: [2] },`; a table where that does not hold fails
 * the build rather than ship them. ESLint keeps the app's code from reading them (eslint.config.js).
 */
function routeAnswersServerOnly(): Plugin {
  const routeTable = /\/contract\/\w+\/routes\.ts$/;
  const answersLine = /\r?\n[ \t]*answers: \{[^{}\r\n]*\},(?=\r?\n)/g;
  return {
    name: 'providers:route-answers-server-only',
    apply: 'build',
    enforce: 'pre',
    transform(code, id) {
      if (!routeTable.test(id)) return null;
      const entries = code.match(/\broute</g)?.length ?? 0;
      const removed = code.match(answersLine)?.length ?? 0;
      const stripped = code.replace(answersLine, '');
      if (removed !== entries || /\banswers:/.test(stripped)) {
        throw new Error(`${id}: ${entries} entries, ${removed} one-line \`answers: {…},\` found; write each entry's answers on one line`);
      }
      return { code: stripped, map: null };
    },
  };
}

/**
 * The app's stylesheet inlined into index.html, first in <head>: the splash needs only it to paint, so
 * the page shows the splash as soon as its HTML has arrived, one round trip sooner than with a <link>,
 * and before the app's scripts have arrived. The server allows it by its hash (server/securityHeaders.ts
 * `inlineStyleHashes`). The file stays in dist/ and the manifest, so the first-load figure still counts it.
 */
function stylesheetInline(): Plugin {
  const stylesheet = /\s*<link rel="stylesheet"[^>]*href="\/([^"]+)"[^>]*>/g;
  return {
    name: 'providers:stylesheet-inline',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { filename, bundle }) {
        if (filename !== `${root}index.html`) return html; // not the companion host's page
        const styles = [...html.matchAll(stylesheet)].map(([, fileName]) => {
          const asset = bundle?.[fileName ?? ''];
          if (asset?.type !== 'asset') throw new Error(`index.html links ${fileName}, which the build did not emit`);
          const css = String(typeof asset.source === 'string' ? asset.source : Buffer.from(asset.source));
          if (/<\/style/i.test(css)) throw new Error(`${fileName} cannot be inlined: it contains </style`);
          return `<style>${css}</style>`;
        });
        return html.replace(stylesheet, '').replace('</title>', `</title>${styles.join('')}`);
      },
    },
  };
}

/**
 * Every first screen calls nearly all of the entry's and the startup chunk's functions. V8's explicit
 * compile hint (Chrome 136+; other browsers ignore the comment) has Chrome compile them on the thread
 * that streams the file in, instead of one at a time on the main thread when each is first called.
 * The comment counts only before any code, so it goes in after Vite has prepended its preload map.
 */
function compileHints(chunkNames: string[]): Plugin {
  const hint = '//# allFunctionsCalledOnLoad\n';
  return {
    name: 'providers:compile-hints',
    apply: 'build',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const chunk of Object.values(bundle)) {
          if (chunk.type !== 'chunk' || !chunkNames.includes(chunk.name)) continue;
          chunk.code = hint + chunk.code;
          if (!chunk.map) continue;
          chunk.map.mappings = `;${chunk.map.mappings}`; // the code starts one line lower
          const mapFile = bundle[`${chunk.fileName}.map`];
          if (mapFile?.type === 'asset') mapFile.source = chunk.map.toString();
        }
      },
    },
  };
}

/**
 * Each script and stylesheet also written compressed beside itself, brotli at its best quality and gzip
 * at level 9, for the server to send as they are (server/app.ts `preCompressed`). Compressing at every
 * request costs the server about 20 ms of CPU for the entry alone on each first visit, at a quality low
 * enough to afford (5); done once here, a first visit also downloads about a tenth less.
 */
function precompressed(): Plugin {
  const brotli = promisify(zlib.brotliCompress);
  const gzip = promisify(zlib.gzip);
  const worthCompressing = /\.(js|css)$/;
  let written: string[] = [];
  return {
    name: 'providers:precompressed',
    apply: 'build',
    writeBundle(options, bundle) {
      const outDir = options.dir ?? `${root}dist`;
      written = Object.keys(bundle)
        .filter((fileName) => fileName.startsWith('assets/') && worthCompressing.test(fileName))
        .map((fileName) => path.join(outDir, fileName));
    },
    // After the build, so Rolldown does not count the compression as plugin time in its build report.
    async closeBundle() {
      await Promise.all(
        written.map(async (file) => {
          const source = await readFile(file);
          const [br, gz] = await Promise.all([
            brotli(source, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: source.length } }),
            gzip(source, { level: zlib.constants.Z_BEST_COMPRESSION }),
          ]);
          await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
        }),
      );
    },
  };
}

/**
 * The service worker (public/sw.js) is given the list of this release's files, so it can delete the
 * files of older releases it kept; and since each release's list differs, the browser installs each
 * release's worker (an unchanged sw.js never is). It is also given the files it fetches ahead at
 * install: the two message catalogues, and the activity screens' files (`activityScreens`).
 */
function serviceWorkerFileList(): Plugin {
  const placeholder = 'const buildAssets = [];';
  const cataloguesPlaceholder = 'const catalogues = [];';
  const activityScreensPlaceholder = 'const activityScreens = [];';
  /**
   * The lazy modules of the activity list and a transaction's detail (src/features/activity/routes.ts,
   * and the charts they share, ActivityRoute.tsx `loadScreens`): each a chunk of its own.
   */
  const activityScreenModules = ['src/features/activity/activityScreensOf.ts', 'src/features/activity/TransactionsView.tsx', 'src/features/activity/TransactionDetailView.tsx'];
  return {
    name: 'providers:service-worker-file-list',
    apply: 'build',
    async writeBundle(options, bundle) {
      const worker = path.join(options.dir ?? `${root}dist`, 'sw.js');
      const source = await readFile(worker, 'utf8');
      for (const needed of [placeholder, cataloguesPlaceholder, activityScreensPlaceholder]) {
        if (!source.includes(needed)) throw new Error(`${worker} has no \`${needed}\` for the build's file lists`);
      }
      const files = Object.keys(bundle)
        .filter((fileName) => fileName.startsWith('assets/') && !fileName.endsWith('.map'))
        .map((fileName) => `/${fileName}`)
        .sort();
      // Each language's messages (a chunk of its own, loaded when the language is): kept ahead, so the
      // other language can be chosen offline and the app starts in it (public/sw.js).
      const catalogues = Object.values(bundle)
        .filter((chunk) => chunk.type === 'chunk' && /\/locales\/[a-z]+\/messages\.po$/.test(chunk.facadeModuleId ?? ''))
        .map((chunk) => `/${chunk.fileName}`)
        .sort();
      if (catalogues.length !== 2) throw new Error(`Expected the en and es message catalogues among the chunks, found ${JSON.stringify(catalogues)}`);
      // The activity screens' chunks, with the chunks and stylesheets they import (Vite's preload loads
      // them all before the screen's module runs): kept ahead, so activity and a detail open offline
      // although they were not opened online (issue 11: home and activity show the last-known copy).
      // Not the entry's own files, which the shell names and every page hands over.
      const chunks = Object.values(bundle).filter((chunk) => chunk.type === 'chunk');
      const byFileName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const entryFiles = new Set<string>();
      const inEntry = (fileName: string) => {
        if (entryFiles.has(fileName)) return;
        entryFiles.add(fileName);
        for (const imported of byFileName.get(fileName)?.imports ?? []) inEntry(imported);
      };
      for (const chunk of chunks) if (chunk.isEntry) inEntry(chunk.fileName);
      const screenFiles = new Set<string>();
      const withImports = (fileName: string) => {
        const chunk = byFileName.get(fileName);
        if (!chunk) throw new Error(`A chunk imports ${fileName}, which the build did not emit`);
        if (entryFiles.has(fileName) || screenFiles.has(fileName)) return;
        screenFiles.add(fileName);
        for (const css of chunk.viteMetadata?.importedCss ?? []) screenFiles.add(css);
        for (const imported of chunk.imports) withImports(imported);
      };
      for (const module of activityScreenModules) {
        const found = chunks.filter((chunk) => chunk.facadeModuleId === path.join(root, module));
        if (found.length !== 1 || !found[0]?.isDynamicEntry) {
          throw new Error(`Expected ${module} as a lazy chunk of its own (the worker keeps the activity screens ahead), found ${JSON.stringify(found.map((chunk) => chunk.fileName))}`);
        }
        withImports(found[0].fileName);
      }
      const activityScreens = [...screenFiles].map((fileName) => `/${fileName}`).sort();
      await writeFile(
        worker,
        source
          .replace(placeholder, () => `const buildAssets = ${JSON.stringify(files)};`)
          .replace(cataloguesPlaceholder, () => `const catalogues = ${JSON.stringify(catalogues)};`)
          .replace(activityScreensPlaceholder, () => `const activityScreens = ${JSON.stringify(activityScreens)};`),
      );
    },
  };
}

export default defineConfig({
  plugins: [
    routeAnswersServerOnly(),
    stylesheetInline(),
    compileHints(['index', 'startup']),
    precompressed(),
    serviceWorkerFileList(),
    companionHostIsolation(),
    react(),
    // Only the app's own code uses Lingui's macros, and only the files that import them: Babel, slow,
    // transforms nothing else (the server, the charts, the tests, the app's other files).
    babel({
      include: /\/src\/.*\.tsx?(?:$|\?)/,
      presets: [defineRolldownBabelPreset({ preset: { plugins: ['@lingui/babel-plugin-lingui-macro'] }, rolldown: { filter: { code: /@lingui\/(core|react)\/macro/ } } })],
    }),
    lingui(),
  ],
  resolve: {
    // @xstate/react and TanStack's store import the React 17 shims of useSyncExternalStore; on React 19
    // the package's own entries are React's built-in hook, so no shim code ships (about 0.4 KB gzip).
    alias: [
      { find: /^use-sync-external-store\/shim\/with-selector(\.js)?$/, replacement: 'use-sync-external-store/with-selector' },
      { find: /^use-sync-external-store\/shim(\/index\.js)?$/, replacement: 'use-sync-external-store' },
    ],
  },
  build: {
    manifest: true,
    target: 'es2022',
    // Every browser the app supports follows <link rel="modulepreload"> itself (Chrome 66, Safari 17,
    // Firefox 115); one without it loads the same chunks a moment later, so the polyfill is not shipped.
    modulePreload: { polyfill: false },
    sourcemap: false,
    // Vite 8 builds with Rolldown: `rolldownOptions` (`rollupOptions` is its deprecated alias).
    // Two pages: the app (unchanged, still named "index"), and the sandbox companion host page that
    // server/partners/companionHost.ts serves on its own origin from
    // dist/server/partners/companion-host/index.html.
    rolldownOptions: {
      input: {
        index: `${root}index.html`,
        'companion-host': `${companionHostDir}index.html`,
      },
      // Lazy chunks and the stylesheets by hash alone: the entry lists every lazy file's name (its preload
      // map; the stylesheets' by hash alone saved 90 B gzip of it), so short names keep the first load small;
      // dist/.vite/manifest.json still maps each to its source.
      output: {
        chunkFileNames: 'assets/[hash].js',
        assetFileNames: 'assets/[hash][extname]',
        // XState, the registration constants and the focus check of the screens that hand the focus on
        // load with every first screen: one file, not three (the bundler would give each small module a
        // file of its own, one more request on a slow phone).
        codeSplitting: {
          groups: [
            { name: 'startup', test: /node_modules\/xstate\/|contract\/identity\/types\.ts|src\/shared\/components\/focusIsNowhere\.ts/ },
            // What sign-in's first screen shares with registration and the password reset: the texted
            // code's chart, the password field, and "then sign in". One file instead of two, so sign-in, a
            // usual first screen, starts with one file less. Not the code entry itself (its view and split
            // input): sign-in loads it with its code step (SignInCodeForm.tsx), from the first thing typed.
            { name: 'sign-in-forms', test: /\/machines\/shared\/textedCode\.ts|\/src\/shared\/components\/PasswordField\.|\/src\/features\/session\/resetPassword\/thenSignIn\.ts/, includeDependenciesRecursively: false },
            // What the forms of the sign-in screen share with the other screens that ask for something: the
            // rules and their messages (not registration's and the SSN's: contract/identity/rules.ts, which sign-in
            // does not use), the text field and the submit button, the server's wait notices, the session effects, and
            // TanStack's useRouterState. They came in four files of 0.2–2.7 KB, sign-in's deps with three
            // more: Vite's preload helper makes a <link> for each, in the task that loads the first screen,
            // and under DevTools each took about 1 ms of that task (docs/performance.md). Screens that
            // loaded only some of them now load all of them (up to 0.5 KB gzip more).
            {
              name: 'forms',
              test: /\/contract\/rules\.ts|\/src\/shared\/(messages\.ts|components\/(TextField|SubmitButton)\.|waitNotices\.|sessionEffects\.)|\/machines\/shared\/serverWait\.ts|@tanstack\/react-router\/dist\/esm\/useRouterState\.js/,
              includeDependenciesRecursively: false,
            },
            // What the account's screens (home, activity, statements, cards) share: the activity rows, the
            // money and date formats, amounts as seen and heard, the button that keeps the focus through its
            // call (ActionButton), the fees and their names (a fee's
            // transaction is titled by one; every screen that shows fees loads this file already), the
            // last-known copy, home's chart, the loading and retry notices, home's early call
            // (src/features/home/earlyHome.ts) and home's stylesheet (its rules select only home's
            // markup), and how a card's status and life are said and acted on (src/shared/cards: home and
            // the cards screens). One JS and one CSS file instead of many of 0.2–1 KB:
            // home's code came in eleven files, each a <link> the page creates in one task, and over a slow
            // network they queued behind the browser's six connections (docs/performance.md). Not their
            // dependencies (on the first screens already); a module here that a first screen imports would
            // move out of the entry, which the first-load budget shows. Not the phone's format either: only
            // registration shows one, and it reads the rules' phoneDigits, which brought the forms' file
            // into home's first load (2.6 KB gzip). Nor the phone's time zone against New York's
            // (easternTime.ts): only statements and activity say it.
            {
              name: 'account-screens',
              test: /\/src\/shared\/(activity|cards)\/|\/src\/shared\/format\/(?!phone\.|easternTime\.)|\/src\/shared\/offline\/(lastKnown|AsOfNotice)\.|\/machines\/home\/|\/src\/shared\/components\/(Skeleton|RetryNotice|Amount|ActionButton)\.|\/contract\/shared\/fees\.ts|\/src\/shared\/fees\/feeNames\.|\/src\/features\/home\/(home\.css|earlyHome\.ts)/,
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
  server: { proxy: { '/api': 'http://localhost:8080', '/cms': 'http://localhost:8080', '/sandbox': 'http://localhost:8080' } },
  test: {
    // The run's PostgreSQL server and PGlite dump folder (tests/support/testDatabases.ts).
    globalSetup: ['tests/support/testDatabases.ts'],
    // One test file per core. Vitest's default leaves one core to its main process, which is nearly
    // idle once modules are transformed: on 2 cores that ran one file at a time.
    maxWorkers: availableParallelism(),
    // Test files share their worker's loaded modules instead of importing React, jsdom's helpers, Fastify
    // and the rest again for every file: about a third of the suite's CPU. Tests start their own apps,
    // databases and renders, and tests/setup.ts undoes timers and stubs after each file.
    isolate: false,
    // Limits for a stuck test, not a speed check: wide, so that a loaded machine only runs slower (a
    // PGlite folder's first open took over 20 s beside a busy CI run); hangs still end by name within
    // minutes (these, and the watchdog below).
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // A stray `.only` fails the run anywhere, not only where CI is set (neither test.sh nor .ci/run sets
    // it): otherwise the rest of its file is skipped and the suite is green.
    allowOnly: false,
    // Ends the run when one file runs past its limit, naming it (a synchronous hang blocks the timers above).
    reporters: ['default', './scripts/vitestWatchdog.ts'],
    projects: [
      { extends: true, test: { name: 'node', environment: 'node', include: nodeTests, setupFiles: ['tests/setup.ts'] } },
      {
        extends: true,
        test: {
          name: 'dom',
          environment: 'jsdom',
          include: ['tests/**/*.test.{ts,tsx}'],
          exclude: nodeTests,
          setupFiles: ['tests/setup.ts', 'tests/setupDom.ts'],
        },
      },
    ],
  },
});
