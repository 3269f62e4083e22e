/**
 * Opens the database: PGlite (file-backed, embedded, in its own thread) by default, PostgreSQL when a
 * URL is given.
 * Migrations are applied on every open; they are idempotent.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema/index.ts';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
export type OpenDatabase = {
  db: Database;
  close: () => Promise<void>;
  kind: 'pglite' | 'postgres';
  /**
   * Table statistics for the query planner. PostgreSQL's autovacuum keeps them; PGlite runs no
   * background workers, so without this its planner guesses (the home query takes ~12% longer).
   * Call once the data is there (after seeding), at every start.
   */
  gatherStatistics: () => Promise<void>;
};

export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export async function openDatabase(options: {
  databaseUrl?: string;
  dataDir?: string;
  /** A PGlite data folder dump (`dumpDataDir()`) to start from: in memory, or into a new `dataDir` (tests). */
  snapshot?: Uint8Array;
}): Promise<OpenDatabase> {
  if (options.databaseUrl) {
    const { default: pg } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // pg re-emits errors of idle connections (server restart, shutdown, network loss) on the pool;
    // unhandled, one would crash the process. The pool replaces the lost connection on next use. Once
    // closed, it is no news: pool.end() resolves before its connections have gone, so a server stopped
    // right after (tests, the bench) ends them and each would report it.
    let closed = false;
    pool.on('error', (error) => {
      if (!closed) console.warn(`PostgreSQL connection lost: ${error.message}`);
    });
    const db = drizzle({ client: pool, schema });
    await migrate(db, { migrationsFolder });
    const close = () => {
      closed = true;
      return pool.end();
    };
    return { db, close, kind: 'postgres', gatherStatistics: async () => {} };
  }
  const { openPGlite } = await import('./pgliteClient.ts');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  // PGlite does not create parent folders; undefined dataDir means in-memory (tests).
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const client = await openPGlite(options.dataDir, options.snapshot);
  const db = drizzle({ client, schema });
  await migrate(db, { migrationsFolder });
  return {
    db,
    close: () => client.close(),
    kind: 'pglite',
    gatherStatistics: async () => {
      await client.exec('analyze');
    },
  };
}
