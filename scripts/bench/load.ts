/**
 * API load: the server under test runs in a child process (scripts/bench/serve.ts) so autocannon's
 * own CPU use competes less with it. autocannon drives the fixed request rate; latency percentiles
 * are computed from every response time it reports, next to autocannon's own histogram figures.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon, { type AutocannonResult } from 'autocannon';
import type { ActivityHistory } from './activity.ts';

export const loadShape = { overallRate: 1000, connections: 20, durationSeconds: 10, warmupSeconds: 2 } as const;

export type LoadResult = {
  label: string;
  /** Measured response times of 2xx answers (autocannon 'response' events), sub-ms precision. */
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /**
   * autocannon's own latency histogram: whole ms, with its coordinated-omission correction, which
   * in v8 back-fills a sample every 1 ms (ceil(1 / per-connection rate)) below each response time,
   * so it moves p50 down and p99 up. Shown for reference; budgets use the measured times.
   */
  histogramP50Ms: number;
  histogramP99Ms: number;
  reqPerSec: number;
  requests: number;
  non2xx: number;
  errors: number;
};

const children = new Set<ChildProcess>();
const serveScript = path.join(path.dirname(fileURLToPath(import.meta.url)), 'serve.ts');

/** Kills every child still running; safe to call from 'exit' handlers (synchronous). */
export function killChildren(): void {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  children.clear();
}

/** `activity`: the bulk-loaded history, when one was asked for (scripts/bench/activity.ts). */
export type ChildServer = { port: number; activity?: ActivityHistory; stop: () => Promise<void> };

/**
 * `databaseUrl`: run the app on that PostgreSQL instead of the file-backed PGlite.
 * `activityTransfers`: bulk-load that many transfers into the demo cardholder's account first.
 */
export async function spawnServer(
  mode: 'app' | 'bare',
  cwd: string,
  databaseUrl?: string,
  options: { activityTransfers?: number } = {},
): Promise<ChildServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', serveScript, mode], {
    cwd,
    stdio: ['pipe', 'pipe', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'development',
      BENCH_DATABASE_URL: databaseUrl ?? '',
      BENCH_ACTIVITY_TRANSFERS: String(options.activityTransfers ?? ''),
    },
  });
  children.add(child);
  // Bulk-loading a history takes a while on PGlite.
  const startSeconds = options.activityTransfers ? 300 : 60;
  const ready = await new Promise<{ port: number; activity?: ActivityHistory }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve.ts ${mode} did not start within ${startSeconds} s`)), startSeconds * 1000);
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(line) as { port: number; activity?: ActivityHistory });
      } catch {
        reject(new Error(`serve.ts ${mode} printed ${line}`));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve.ts ${mode} exited with ${code} before listening`));
    });
  });
  return {
    ...ready,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) {
          children.delete(child);
          return resolve();
        }
        const force = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.once('exit', () => {
          clearTimeout(force);
          children.delete(child);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

/** `overallRate`: requests per second asked (loadShape's unless given). */
export async function runLoad(
  label: string,
  url: string,
  headers: Record<string, string> = {},
  overallRate: number = loadShape.overallRate,
): Promise<LoadResult> {
  const options = { url, headers, connections: loadShape.connections, overallRate, timeout: 10 };
  // Warm-up (JIT, PGlite caches, connection setup); not counted.
  await autocannon({ ...options, duration: loadShape.warmupSeconds });
  const responseTimes: number[] = [];
  const instance = autocannon({ ...options, duration: loadShape.durationSeconds });
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    if (statusCode >= 200 && statusCode < 300) responseTimes.push(responseTime);
  });
  const result: AutocannonResult = await instance;
  responseTimes.sort((a, b) => a - b);
  return {
    label,
    p50Ms: percentile(responseTimes, 50),
    p99Ms: percentile(responseTimes, 99),
    maxMs: responseTimes.at(-1) ?? Number.NaN,
    histogramP50Ms: result.latency.p50,
    histogramP99Ms: result.latency.p99,
    reqPerSec: result.requests.total / result.duration,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/** Nearest-rank percentile of an ascending array. */
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
