/**
 * Vitest global set-up: a folder for this run's database dumps (pgliteSnapshot.ts), handed to the
 * test workers and removed when the run ends.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteSnapshots: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'cards-pglite-snapshots-'));
  project.provide('pgliteSnapshots', folder);
  return () => rm(folder, { recursive: true, force: true });
}
