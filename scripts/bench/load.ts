/**
 * API load: the server under test runs in a child process (scripts/bench/serve.ts) so autocannon's
 * own CPU use competes less with it; autocannon drives a fixed request rate and reports latency
 * corrected for coordinated omission (autocannon's default when a rate is set).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon, { type AutocannonResult } from 'autocannon';

export const loadShape = { overallRate: 1000, connections: 20, durationSeconds: 10, warmupSeconds: 2 } as const;

export type LoadResult = {
  label: string;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
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

export type ChildServer = { port: number; stop: () => Promise<void> };

export async function spawnServer(mode: 'app' | 'bare', cwd: string): Promise<ChildServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', serveScript, mode], {
    cwd,
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, NODE_ENV: 'development' },
  });
  children.add(child);
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve.ts ${mode} did not start within 60 s`)), 60_000);
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => {
      clearTimeout(timer);
      try {
        resolve((JSON.parse(line) as { port: number }).port);
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
    port,
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

export async function runLoad(label: string, url: string, headers: Record<string, string> = {}): Promise<LoadResult> {
  const options = { url, headers, connections: loadShape.connections, overallRate: loadShape.overallRate, timeout: 10 };
  // Warm-up (JIT, PGlite caches, connection setup); not counted.
  await autocannon({ ...options, duration: loadShape.warmupSeconds });
  const result: AutocannonResult = await autocannon({ ...options, duration: loadShape.durationSeconds });
  return {
    label,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    reqPerSec: result.requests.total / result.duration,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}
