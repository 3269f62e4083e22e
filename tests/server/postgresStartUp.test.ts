/**
 * Servers starting together on one PostgreSQL database (server/db/database.ts, `startUpLock`): one at a
 * time migrates and seeds, the others wait for it and then find everything done. Until 2026-12-01 two
 * `npm start`s on a new database both migrated (or both seeded), and one stopped at start-up on a
 * duplicate table or demo cardholder.
 */
import { count } from 'drizzle-orm';
import pg from 'pg';
import { expect, it, vi } from 'vitest';
import { readConfig } from '../../server/config.ts';
import { unsealDob } from '../../server/datesOfBirth.ts';
import { openDatabase, type OpenDatabase } from '../../server/db/database.ts';
import { users } from '../../server/db/schema/index.ts';
import { cardStateCardholders } from '../../server/seed.ts';
import { preparedAtStart } from '../../server/startUp.ts';
import { withClient } from '../support/postgres.ts';
import { testDatabase } from '../support/postgresDatabases.ts';
import { describeOnPostgres } from './helpers.ts';

// pg_locks lists the whole server's locks: the queries below keep to the test's own database, where
// only the start-up lock is taken (other test files' databases take advisory locks of their own).

/** Whether a session of this database waits for an advisory lock (the start-up lock). */
async function someoneWaitsForTheLock(url: string): Promise<boolean> {
  return withClient(url, async (client) => {
    const { rows } = await client.query(
      "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND wait_event = 'advisory'",
    );
    return rows.length > 0;
  });
}

describeOnPostgres('servers starting together on one PostgreSQL database', {}, () => {
  it('both start on a new database, migrated and seeded once', async () => {
    const copy = await testDatabase();
    const opened: OpenDatabase[] = [];
    try {
      const starts = [1, 2].map(() => openDatabase({ databaseUrl: copy.url, prepare: preparedAtStart(readConfig()) }).then((database) => opened.push(database)));
      await Promise.all(starts);

      const [seeded] = await opened[0]!.db.select({ users: count() }).from(users);
      expect(seeded!.users).toBe(2 + cardStateCardholders.length);
      // Sealed once: a date of birth sealed twice would not open as one.
      const key = readConfig().ssnEncryptionKey;
      for (const { id, dob } of await opened[1]!.db.select({ id: users.id, dob: users.dob }).from(users)) expect(unsealDob(dob!, key, id)).toMatch(/^\d\d\/\d\d\/\d{4}$/);
    } finally {
      await Promise.all(opened.map((database) => database.close()));
      await copy.drop();
    }
  }, 60_000);

  it('a second server waits while the first prepares the database, and prepares it after', async () => {
    const copy = await testDatabase();
    const opened: OpenDatabase[] = [];
    const steps: string[] = [];
    let letFirstFinish = () => {};
    const firstMayFinish = new Promise<void>((resolve) => (letFirstFinish = resolve));
    let firstPreparing = () => {};
    const firstIsPreparing = new Promise<void>((resolve) => (firstPreparing = resolve));
    const starts: Promise<unknown>[] = [];
    try {
      const first = openDatabase({
        databaseUrl: copy.url,
        prepare: async () => {
          firstPreparing();
          await firstMayFinish;
          steps.push('first prepared');
        },
      }).then((database) => opened.push(database));
      starts.push(first);
      await firstIsPreparing;
      let secondDone = false;
      const second = openDatabase({ databaseUrl: copy.url, prepare: async () => void steps.push('second prepared') })
        .then((database) => opened.push(database))
        .finally(() => (secondDone = true));
      starts.push(second);

      // Polled, not timed: the second either waits for the lock or (the bug) goes ahead at once.
      while (!secondDone && !(await someoneWaitsForTheLock(copy.url))) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(steps).toEqual([]);

      letFirstFinish();
      await Promise.all([first, second]);
      expect(steps).toEqual(['first prepared', 'second prepared']);
    } finally {
      letFirstFinish();
      await Promise.allSettled(starts);
      await Promise.all(opened.map((database) => database.close()));
      await copy.drop();
    }
  }, 60_000);

  it('holds the lock in a transaction (a transaction-mode pooler keeps it on one server connection), and lets it and its connections go when the start-up fails', async () => {
    const copy = await testDatabase();
    let holderState: string | undefined;
    const poolsEnded = vi.spyOn(pg.Pool.prototype, 'end');
    try {
      const failed = openDatabase({
        databaseUrl: copy.url,
        prepare: async () => {
          holderState = await withClient(copy.url, async (client) => {
            const { rows } = await client.query<{ state: string }>(
              "SELECT a.state FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory' AND l.granted AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())",
            );
            return rows[0]?.state;
          });
          throw new Error('the seed failed');
        },
      });
      await expect(failed).rejects.toThrow('the seed failed');
      expect(holderState).toBe('idle in transaction');
      expect(poolsEnded).toHaveBeenCalledTimes(1);

      const next = await openDatabase({ databaseUrl: copy.url });
      await next.close();
    } finally {
      poolsEnded.mockRestore();
      await copy.drop();
    }
  }, 60_000);

  it("keeps the lock while the database ends sessions idle in a transaction (a managed service's timeout)", async () => {
    const copy = await testDatabase();
    let locksWhilePreparing: number | undefined;
    try {
      await withClient(copy.url, async (client) => {
        const { rows } = await client.query<{ name: string }>('SELECT current_database() AS name');
        await client.query(`ALTER DATABASE "${rows[0]!.name}" SET idle_in_transaction_session_timeout = '50ms'`);
      });
      const database = await openDatabase({
        databaseUrl: copy.url,
        prepare: async () => {
          // Twenty times the timeout: a session it ends is gone by then, however slow the machine.
          await new Promise((resolve) => setTimeout(resolve, 1000));
          locksWhilePreparing = await withClient(copy.url, async (client) => {
            const { rows } = await client.query<{ held: number }>("SELECT count(*)::int AS held FROM pg_locks WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())");
            return rows[0]!.held;
          });
        },
      });
      await database.close();
      expect(locksWhilePreparing).toBe(1);
    } finally {
      await copy.drop();
    }
  }, 60_000);

  it('fails, not crashes, when the lock is lost while it prepares (its connection ended)', async () => {
    const copy = await testDatabase();
    try {
      const started = openDatabase({
        databaseUrl: copy.url,
        prepare: () =>
          withClient(copy.url, async (client) => {
            // Waits until the lock's session is gone.
            await client.query("SELECT pg_terminate_backend(pid, 10000) FROM pg_locks WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())");
          }),
      });
      await expect(started).rejects.toThrow();
      // Nothing held: the next start goes ahead.
      const next = await openDatabase({ databaseUrl: copy.url });
      await next.close();
    } finally {
      await copy.drop();
    }
  }, 60_000);
});
