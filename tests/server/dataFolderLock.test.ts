/**
 * One server per PGlite data folder (server/db/dataFolderLock.ts). PGlite has no lock of its own:
 * until 2026-12-01 a second process opened a folder a running server had open, each saw only its own
 * writes, and the folder kept whichever wrote last.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { claimDataFolder, DataFolderInUse } from '../../server/db/dataFolderLock.ts';
import * as pgliteClient from '../../server/db/pgliteClient.ts';
import { migratedSnapshot, openTestPGlite } from '../support/pgliteSnapshot.ts';

let dataDir: string;
let pidFile: string;

// The process identity Linux gives (these tests read /proc as the lock does): the boot, and a process's
// start in clock ticks since boot (/proc/<pid>/stat field 22).
const bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
function startOf(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!;
}

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'cards-pglite-lock-'));
  pidFile = path.join(dataDir, 'server.pid');
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

/** Claims the folder expecting it to be taken over: the file names this process until released. */
async function expectTakenOver() {
  const release = claimDataFolder(dataDir);
  try {
    expect((await readFile(pidFile, 'utf8')).split(' ')[0]).toBe(String(process.pid));
  } finally {
    release();
  }
  expect(existsSync(pidFile)).toBe(false);
}

describe('a PGlite data folder', () => {
  it('is refused while open, and let go when closed', async () => {
    const first = await openTestPGlite({ dataDir, snapshot: await migratedSnapshot() });
    try {
      await expect(openTestPGlite({ dataDir })).rejects.toThrow(DataFolderInUse);
      expect(() => claimDataFolder(dataDir)).toThrow('this process already');
    } finally {
      await first.close();
    }
    expect(existsSync(pidFile)).toBe(false);
  }, 120_000);

  it('is let go, its database thread stopped, when the start-up fails', async () => {
    const closes: unknown[] = [];
    const realOpen = pgliteClient.openPGlite;
    const openPGlite = vi.spyOn(pgliteClient, 'openPGlite').mockImplementation(async (...args) => {
      const client = await realOpen(...args);
      closes.push(vi.spyOn(client, 'close'));
      return client;
    });
    try {
      const failed = openTestPGlite({
        dataDir,
        snapshot: await migratedSnapshot(),
        prepare: () => Promise.reject(new Error('the seed failed')),
      });
      await expect(failed).rejects.toThrow('the seed failed');
    } finally {
      openPGlite.mockRestore();
    }
    expect(closes).toHaveLength(1);
    expect(closes[0]).toHaveBeenCalledTimes(1);
    expect(existsSync(pidFile)).toBe(false);
  }, 120_000);

  it('is refused while another live process holds it, naming that process', async () => {
    // The test runner's parent process: alive for as long as this test runs.
    const holder = `${process.ppid} ${bootId} ${startOf(process.ppid)}`;
    await writeFile(pidFile, holder);
    expect(() => claimDataFolder(dataDir)).toThrow(`process ${process.ppid}`);
    expect(await readFile(pidFile, 'utf8')).toBe(holder);
  });

  it('is refused while a live process holds it by a file of the first form (its id alone)', async () => {
    await writeFile(pidFile, String(process.ppid));
    expect(() => claimDataFolder(dataDir)).toThrow(`process ${process.ppid}`);
  });

  it('is taken over from a file of the first form written before this boot (a server that ran when the machine lost power)', async () => {
    await writeFile(pidFile, String(process.ppid));
    const beforeThisBoot = new Date('2000-01-01T00:00:00Z');
    await utimes(pidFile, beforeThisBoot, beforeThisBoot);
    await expectTakenOver();
  });

  it("is let go only by its own claim: a release after another server's claim leaves that claim", async () => {
    const release = claimDataFolder(dataDir);
    const other = `${process.ppid} ${bootId} ${startOf(process.ppid)}`;
    await writeFile(pidFile, other);
    release();
    expect(await readFile(pidFile, 'utf8')).toBe(other);
  });

  it('is taken over when the id is now a later process\'s (the holder was killed, its id given again)', async () => {
    await writeFile(pidFile, `${process.ppid} ${bootId} ${Number(startOf(process.ppid)) - 1}`);
    await expectTakenOver();
  });

  it('is taken over after a reboot (the machine lost power while a server ran), whatever process has the id now', async () => {
    await writeFile(pidFile, `${process.ppid} 00000000-0000-4000-8000-000000000000 ${startOf(process.ppid)}`);
    await expectTakenOver();
  });

  it("is taken over from an earlier server whose process id this one has (a container's process 1 after a crash)", async () => {
    await writeFile(pidFile, String(process.pid));
    await expectTakenOver();
  });

  it('is taken over from a server that was killed (its process is gone)', async () => {
    await writeFile(pidFile, String(2 ** 22 + 1)); // above Linux's largest process id: no process has it
    await expectTakenOver();
  });

  it("is taken over when the killed server's id is now a thread's of another process (the kernel answers for threads too)", async () => {
    // This process's own threads (V8's, libuv's): ids that name a thread, not a process.
    const thread = readdirSync('/proc/self/task').map(Number).find((id) => id !== process.pid);
    expect(thread).toBeDefined();
    await writeFile(pidFile, String(thread));
    await expectTakenOver();
  });

  it('is claimed by one of two servers starting together, never both, with or without a stale file', async () => {
    const rounds = 24;
    for (let round = 0; round < rounds; round += 1) {
      await mkdir(path.join(dataDir, `folder-${round}`));
      // Every other round starts on a file a killed server left.
      if (round % 2 === 1) await writeFile(path.join(dataDir, `folder-${round}`, 'server.pid'), String(2 ** 22 + 1));
    }
    const servers = ['a', 'b'].map((name) =>
      spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, '../support/claimingServer.ts'), dataDir, String(rounds), name], { stdio: 'inherit' }),
    );
    try {
      const outcomes: string[][] = [];
      for (let round = 0; round < rounds; round += 1) {
        await writeFile(path.join(dataDir, `go-${round}`), '');
        const files = ['a', 'b'].map((name) => path.join(dataDir, `outcome-${round}-${name}`));
        // Polled, not timed: each server writes its outcome once it has one (one that has ended never will).
        while (!files.every((file) => existsSync(file))) {
          const ended = servers.find((server) => server.exitCode !== null || server.signalCode !== null);
          if (ended) throw new Error(`a claiming server ended (${ended.exitCode ?? ended.signalCode}) in round ${round}`);
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        outcomes.push((await Promise.all(files.map((file) => readFile(file, 'utf8')))).sort());
      }
      expect(outcomes).toEqual(Array.from({ length: rounds }, () => ['claimed', 'refused']));
    } finally {
      for (const server of servers) server.kill();
    }
  }, 120_000);
});
