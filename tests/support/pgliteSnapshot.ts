/**
 * PGlite data folder dumps, each made once per Vitest run: an empty cluster, that cluster migrated,
 * and the migrated one seeded (per pair of SSN keys: the seed encrypts and hashes the demo SSNs with
 * them). Creating a PGlite cluster costs 2–4 s of CPU, migrating and seeding more; loading a dump about
 * 0.5 s, and every test still gets a database of its own. The dumps live in a folder made for this run
 * (testDatabases.ts), so they can never be stale.
 */
import { createHash } from 'node:crypto';
import { cp, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { inject } from 'vitest';
import { migrationsFolder, openDatabase } from '../../server/db/database.ts';
import { DumpBlob } from '../../server/db/dumpBlob.ts';
import { pgliteStartOptions } from '../../server/db/pgliteStart.ts';
import * as schema from '../../server/db/schema/index.ts';
import { seedDemoData } from '../../server/seed.ts';
import type { SsnKeys } from '../../server/ssn.ts';

/**
 * The tests' PGlite page cache (openDatabase's `sharedBuffers`): their databases are small, and a start
 * with PGlite's own 128MB takes about twice the CPU (server/db/pgliteStart.ts).
 */
export const testSharedBuffers = '16MB';

/** `openDatabase` on PGlite, in memory or in `dataDir`, with the tests' page cache. */
export function openTestPGlite(options: Omit<Parameters<typeof openDatabase>[0], 'databaseUrl' | 'sharedBuffers'>) {
  return openDatabase({ ...options, sharedBuffers: testSharedBuffers });
}

/** A new in-thread PGlite, as `new PGlite()` gives: an empty cluster, nothing migrated (tests of migrations). */
export async function emptyPGlite(): Promise<PGlite> {
  return fromSnapshot(await clusterSnapshot());
}

/**
 * Applies to `client` the app's migrations before the one tagged `tag` (as `'0013'`): a database from
 * before that migration, to put old rows in and then migrate the rest (`migrate` with migrationsFolder).
 */
export async function migrateBefore(client: PGlite, tag: string): Promise<void> {
  const older = await mkdtemp(path.join(os.tmpdir(), `before-migration-${tag}-`));
  try {
    await cp(migrationsFolder, older, { recursive: true });
    const journalPath = path.join(older, 'meta/_journal.json');
    const journal = JSON.parse(await readFile(journalPath, 'utf8')) as { entries: { tag: string }[] };
    journal.entries = journal.entries.filter((entry) => entry.tag < tag);
    await writeFile(journalPath, JSON.stringify(journal));
    await migrate(drizzle({ client }), { migrationsFolder: older });
  } finally {
    await rm(older, { recursive: true, force: true });
  }
}

/** An empty cluster with the app's migrations applied and no data (the ledger's system accounts come with them). */
export function migratedSnapshot(): Promise<Uint8Array> {
  return snapshotOnce('migrated', emptyPGlite, async (client) => {
    await migrate(drizzle({ client, schema }), { migrationsFolder });
  });
}

/** The migrated cluster with the demo data seeded with these keys. */
export function seededSnapshot(keys: SsnKeys): Promise<Uint8Array> {
  const name = createHash('sha256').update(keys.ssnEncryptionKey).update(keys.ssnHashKey).digest('hex').slice(0, 16);
  return snapshotOnce(
    `seeded-${name}`,
    async () => fromSnapshot(await migratedSnapshot()),
    async (client) => {
      await seedDemoData(drizzle({ client, schema }), keys);
    },
  );
}

function clusterSnapshot(): Promise<Uint8Array> {
  return snapshotOnce('cluster', async () => new PGlite(pgliteStartOptions(testSharedBuffers)));
}

function fromSnapshot(snapshot: Uint8Array): PGlite {
  return new PGlite({ loadDataDir: new DumpBlob(snapshot as Uint8Array<ArrayBuffer>), ...pgliteStartOptions(testSharedBuffers) });
}

/**
 * The dump called `name`: read from this run's folder, or made (by whichever worker asks first) from
 * the client `open` gives once `prepare` has run on it; the client is closed either way.
 */
async function snapshotOnce(name: string, open: () => Promise<PGlite>, prepare: (client: PGlite) => Promise<void> = async () => {}): Promise<Uint8Array> {
  const file = path.join(inject('pgliteSnapshots'), `${name}.tar`);
  const made = await readFile(file).catch(() => null);
  if (made) return made;
  const client = await open();
  let snapshot: Uint8Array;
  try {
    await prepare(client);
    await client.waitReady; // a dump asked for before the cluster is up never answers
    snapshot = new Uint8Array(await (await client.dumpDataDir('none')).arrayBuffer());
  } finally {
    await client.close();
  }
  // Written aside, then renamed: a worker reading at the same time sees the whole dump or none.
  const partial = `${file}.${process.pid}`;
  await writeFile(partial, snapshot);
  await rename(partial, file);
  return snapshot;
}
