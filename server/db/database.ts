/**
 * Opens the database: PGlite (file-backed, embedded, in its own thread) by default, PostgreSQL when a
 * URL is given.
 * Migrations are applied on every open; they are idempotent. On PostgreSQL, servers starting at once
 * (several instances on one database) migrate and prepare it one at a time: see `startUpLock`.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { claimDataFolder } from './dataFolderLock.ts';
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

/**
 * The advisory lock a starting server holds on PostgreSQL, in a transaction, while it migrates and runs
 * `prepare` (the sandbox's seed). Without it, two servers started together on a new database both
 * found no migration applied (or no demo cardholder) and both went on: one of them stopped at start-up
 * on a duplicate table or user.
 */
export const startUpLock = 'providers-card:start-up';

export async function openDatabase(options: {
  databaseUrl?: string;
  dataDir?: string;
  /** A PGlite data folder dump (`dumpDataDir()`) to start from: in memory, or into a new `dataDir` (tests). */
  snapshot?: Uint8Array;
  /** PGlite's page cache, as `16MB` (server/db/pgliteStart.ts); PGlite's own 128MB without it. */
  sharedBuffers?: string;
  /** Runs once migrated, before the database is handed over (the sandbox's seed); on PostgreSQL under the start-up lock. */
  prepare?: (db: Database) => Promise<void>;
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
    const close = () => {
      closed = true;
      return pool.end();
    };
    // The lock is the transaction's: a transaction keeps its one server connection even behind a
    // transaction-mode pooler (PgBouncer), where a session lock could be taken on one server connection
    // and never let go; and it goes when the transaction ends, however the start-up went.
    try {
      const lock = await pool.connect();
      // The connection lost meanwhile (a server restart): the ROLLBACK below fails and says so; unheard,
      // the connection's error would end the process.
      const heardBelow = () => {};
      lock.on('error', heardBelow);
      let ended: Error | undefined;
      try {
        await lock.query('BEGIN');
        // Idle while the other connections migrate and seed: a server-wide idle-in-transaction timeout
        // (managed services set one) would end the session, and the lock with it.
        await lock.query('SET LOCAL idle_in_transaction_session_timeout = 0');
        await lock.query('SELECT pg_advisory_xact_lock(hashtext($1))', [startUpLock]);
        await migrate(db, { migrationsFolder });
        await options.prepare?.(db);
      } finally {
        ended = await lock.query('ROLLBACK').then(
          () => undefined,
          (error: Error) => error,
        );
        lock.off('error', heardBelow);
        // A connection that failed to end its transaction is closed, not handed out again.
        lock.release(ended);
      }
      // The lock was lost on the way: another server may have migrated or seeded beside this one.
      if (ended) throw ended;
    } catch (error) {
      // A start-up that fails leaves no connection open (it would keep the process alive).
      await close().catch(() => undefined);
      throw error;
    }
    return { db, close, kind: 'postgres', gatherStatistics: async () => {} };
  }
  const { openPGlite } = await import('./pgliteClient.ts');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  // PGlite does not create parent folders; undefined dataDir means in-memory (tests).
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const release = options.dataDir ? claimDataFolder(options.dataDir) : () => {};
  // A start-up that fails stops the database's thread, then lets the folder go (tests open it again
  // in the same process): a thread left running could still write the folder under the next server.
  let client: Awaited<ReturnType<typeof openPGlite>> | undefined;
  try {
    const opened = await openPGlite(options.dataDir, options.snapshot, options.sharedBuffers);
    client = opened;
    const db = drizzle({ client: opened, schema });
    await migrate(db, { migrationsFolder });
    await options.prepare?.(db);
    return {
      db,
      close: async () => {
        try {
          await opened.close();
        } finally {
          release();
        }
      },
      kind: 'pglite',
      gatherStatistics: async () => {
        await opened.exec('analyze');
      },
    };
  } catch (error) {
    await client?.close().catch(() => undefined);
    release();
    throw error;
  }
}
