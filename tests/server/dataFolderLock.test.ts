/**
 * One server per PGlite data folder (server/db/dataFolderLock.ts). PGlite has no lock of its own:
 * until 2026-12-01 a second process opened a folder a running server had open, each saw only its own
 * writes, and the folder kept whichever wrote last.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataFolderInUse } from '../../server/db/dataFolderLock.ts';
import { openDatabase } from '../../server/db/database.ts';
import { migratedSnapshot } from '../support/pgliteSnapshot.ts';

let dataDir: string;

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'cards-pglite-lock-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('a PGlite data folder', () => {
  it('is refused while open, and let go when closed', async () => {
    const first = await openDatabase({ dataDir, snapshot: await migratedSnapshot() });
    try {
      await expect(openDatabase({ dataDir })).rejects.toThrow(DataFolderInUse);
    } finally {
      await first.close();
    }
    expect(existsSync(path.join(dataDir, 'server.pid'))).toBe(false);
  }, 120_000);

  it('is refused while another live process holds it, naming that process', async () => {
    // The test runner's parent process: alive for as long as this test runs.
    await writeFile(path.join(dataDir, 'server.pid'), String(process.ppid));
    await expect(openDatabase({ dataDir, snapshot: await migratedSnapshot() })).rejects.toThrow(`process ${process.ppid}`);
  });

  it("is taken over from an earlier server whose process id this one has (a container's process 1 after a crash)", async () => {
    await writeFile(path.join(dataDir, 'server.pid'), String(process.pid));
    const database = await openDatabase({ dataDir, snapshot: await migratedSnapshot() });
    await database.close();
  }, 120_000);

  it('is taken over from a server that was killed (its process is gone)', async () => {
    const gone = 2 ** 22 + 1; // above Linux's largest process id: no process has it
    await writeFile(path.join(dataDir, 'server.pid'), String(gone));
    const database = await openDatabase({ dataDir, snapshot: await migratedSnapshot() });
    await database.close();
  }, 120_000);
});
