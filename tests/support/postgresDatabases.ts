/**
 * Databases on the run's PostgreSQL server (testDatabases.ts), one per test app. Migrating and
 * seeding costs seconds; PostgreSQL copies a database from a template in milliseconds. So each pair of
 * SSN keys (the seed encrypts and hashes the demo SSNs with them) gets one template per run, made by
 * whichever worker asks first, and every test app gets its own copy: no state shared between apps.
 */
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase } from '../../server/db/database.ts';
import { seedDemoData } from '../../server/seed.ts';
import { withClient } from './postgres.ts';
import type { SsnKeys } from '../../server/ssn.ts';

export type TestDatabase = { url: string; drop: () => Promise<void> };

/** Whether this run has a PostgreSQL server (PG_TESTS=0 leaves it out). */
export const hasTestPostgres = () => inject('testPostgres') !== '';

/** A new database: empty, or a copy of the migrated and seeded template for these keys. */
export async function testDatabase(seededWith?: SsnKeys): Promise<TestDatabase> {
  const adminUrl = inject('testPostgres');
  if (!adminUrl) throw new Error('This run has no PostgreSQL server (PG_TESTS=0).');
  const name = `app_${randomBytes(8).toString('hex')}`;
  await withClient(adminUrl, async (admin) => {
    const template = seededWith ? await seededTemplate(admin, adminUrl, seededWith) : 'template0';
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template} STRATEGY FILE_COPY`);
  });
  return {
    url: databaseUrl(adminUrl, name),
    drop: () => withClient(adminUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => {}),
  };
}

async function seededTemplate(admin: pg.Client, adminUrl: string, keys: SsnKeys): Promise<string> {
  const name = `seeded_${createHash('sha256').update(keys.ssnEncryptionKey).update(keys.ssnHashKey).digest('hex').slice(0, 16)}`;
  // Workers asking at once: the first makes it while the others wait on the lock (held by this session).
  await admin.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
  try {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount) return name;
    await admin.query(`CREATE DATABASE ${name} TEMPLATE template0`);
    const database = await openDatabase({ databaseUrl: databaseUrl(adminUrl, name) });
    try {
      await seedDemoData(database.db, keys);
      await database.db.execute('ANALYZE');
    } finally {
      // A template must have no connections left when it is copied.
      await database.close();
    }
    return name;
  } finally {
    await admin.query('SELECT pg_advisory_unlock(hashtext($1))', [name]);
  }
}

function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.href;
}
