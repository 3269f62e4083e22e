/**
 * A migrated, seeded PGlite database, dumped once per Vitest run and per pair of SSN keys (the seed
 * encrypts and hashes the demo SSNs with them). Creating a PGlite cluster, migrating and seeding costs
 * seconds of CPU; loading the dump costs a fraction, and every test app still gets its own database.
 * The dumps live in a folder made for this run (snapshotFolder.ts), so they can never be stale.
 */
import { createHash } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { inject } from 'vitest';
import { migrationsFolder } from '../../server/db/database.ts';
import * as schema from '../../server/db/schema/index.ts';
import { seedDemoData } from '../../server/seed.ts';
import type { SsnKeys } from '../../server/ssn.ts';

/** The dump for these keys: read from this run's folder, or made (by whichever worker asks first). */
export async function seededSnapshot(keys: SsnKeys): Promise<Uint8Array> {
  const name = createHash('sha256').update(keys.ssnEncryptionKey).update(keys.ssnHashKey).digest('hex').slice(0, 16);
  const file = path.join(inject('pgliteSnapshots'), `${name}.tar`);
  const made = await readFile(file).catch(() => null);
  if (made) return made;
  const snapshot = await makeSnapshot(keys);
  // Written aside, then renamed: a worker reading at the same time sees the whole dump or none.
  const partial = `${file}.${process.pid}`;
  await writeFile(partial, snapshot);
  await rename(partial, file);
  return snapshot;
}

async function makeSnapshot(keys: SsnKeys): Promise<Uint8Array> {
  const client = new PGlite();
  try {
    const db = drizzle({ client, schema });
    await migrate(db, { migrationsFolder });
    await seedDemoData(db, keys);
    const dump = await client.dumpDataDir('none');
    return new Uint8Array(await dump.arrayBuffer());
  } finally {
    await client.close();
  }
}
