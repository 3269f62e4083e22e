/**
 * A Vitest reporter that ends a run whose test file has been running too long, naming it.
 *
 * Vitest's own limits (testTimeout, hookTimeout in vite.config.ts) are timers inside the worker
 * running the file, so a synchronous loop there (path generation without end, say) blocks them and
 * the run would hang until the step's time limit. This runs in the main process, which a busy worker
 * cannot block: past `fileLimitSeconds` it prints every file still running, stops the workers and
 * whatever they started (test databases, servers) and exits with failure.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * The longest a test file may run. The slowest today (the registration path tests) takes about 50 s
 * on a quiet 2-core machine and under twice that beside .ci/run's load; this leaves room for a CI
 * machine slower again, and still ends a hang in minutes, well within the Vitest step's limit
 * (scripts/test.sh).
 */
export const fileLimitSeconds = 240;

/** The processes started by `pid`, and theirs, at any depth (from /proc, Linux). */
function descendantsOf(pid: number): number[] {
  const childrenOf = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The fields after the command name (which may hold spaces and parentheses): state, ppid, …
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      childrenOf.set(ppid, [...(childrenOf.get(ppid) ?? []), Number(entry)]);
    } catch {
      // The process ended while the list was read.
    }
  }
  const below = (parent: number): number[] => (childrenOf.get(parent) ?? []).flatMap((child) => [child, ...below(child)]);
  return below(pid);
}

export default class VitestWatchdog implements Reporter {
  private readonly running = new Map<string, number>();
  private readonly timer = setInterval(() => this.check(), 5_000).unref();

  // Queued is reported by the worker as it starts the file, before the file is imported (where a
  // generator runs), so the time counted includes collection.
  onTestModuleQueued(module: TestModule) {
    this.running.set(module.relativeModuleId, Date.now());
  }

  onTestModuleEnd(module: TestModule) {
    this.running.delete(module.relativeModuleId);
  }

  onTestRunEnd() {
    clearInterval(this.timer);
  }

  private check() {
    const now = Date.now();
    const stuck = [...this.running].filter(([, started]) => now - started > fileLimitSeconds * 1000);
    if (stuck.length === 0) return;
    const lines = [...this.running].map(([file, started]) => `  ${file} (running for ${Math.round((now - started) / 1000)} s)`);
    process.stderr.write(
      `\nVitest watchdog: ${stuck.map(([file]) => file).join(', ')} ran longer than ${fileLimitSeconds} s, ` +
        `the limit for one test file. Stopping the run. Files still running:\n${lines.join('\n')}\n`,
    );
    for (const pid of descendantsOf(process.pid).reverse()) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    process.exit(1);
  }
}
