/**
 * The embedded database's client (server/db/pgliteClient.ts) runs PGlite in a worker thread, with
 * Drizzle's parsers set once there. Drizzle must see exactly what it would see in-thread: dates as
 * Postgres writes them, transactions that commit and roll back, database errors with their codes, and
 * queries from elsewhere never running inside someone else's transaction. Reads run read-only and
 * leave the count of changes that kept answers rely on (server/db/keptAnswers.ts) as it was.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { OpenDatabase } from '../../server/db/database.ts';
import type { ReadsAndChanges } from '../../server/db/pgliteClient.ts';
import { pgliteStartOptions } from '../../server/db/pgliteStart.ts';
import { sandboxEmailOutbox, transfers } from '../../server/db/schema/index.ts';
import { seedDemoData } from '../../server/seed.ts';
import { emptyPGlite, migratedSnapshot, openTestPGlite, testSharedBuffers } from '../support/pgliteSnapshot.ts';

let database: OpenDatabase;

beforeAll(async () => {
  database = await openTestPGlite({ snapshot: await migratedSnapshot() });
  await seedDemoData(database.db);
});
afterAll(() => database.close());

describe('the embedded database client', () => {
  // As `npm start` keeps it: in a folder. What a restart relies on (the attempt limits' tests restart the
  // server on the run's PostgreSQL, or on such a folder with PG_TESTS=0). The folder starts from this
  // run's migrated dump; Playwright's server starts every run on a new, empty folder.
  it('in a folder: refuses calls once closed, a normal close is not reported as a failure, and a reopen finds what was written', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cards-pglite-folder-'));
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const first = await openTestPGlite({ dataDir, snapshot: await migratedSnapshot() });
      const [written] = await first.db.insert(sandboxEmailOutbox).values({ email: 'restart@providers.test', subject: 'Kept', text: 'across a restart' }).returning();
      await first.close();
      await expect(first.db.execute(sql`select 1`)).rejects.toMatchObject({ cause: { message: expect.stringContaining('stopped') } });
      expect(errors).not.toHaveBeenCalled();

      const reopened = await openTestPGlite({ dataDir });
      try {
        expect(await reopened.db.select().from(sandboxEmailOutbox).where(eq(sandboxEmailOutbox.email, 'restart@providers.test'))).toEqual([written]);
      } finally {
        await reopened.close();
      }
    } finally {
      errors.mockRestore();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('reads timestamps, dates and intervals as a plain per-query PGlite with Drizzle does', async () => {
    const plain = await emptyPGlite();
    try {
      const reference = drizzle({ client: plain });
      const query = sql`select now()::timestamp as "local", timestamptz '2026-11-22 08:00:00+00' as "zoned",
        date '2026-11-22' as "day", interval '90 minutes' as "wait", array[date '2026-01-01'] as "days"`;
      type Row = Record<string, unknown>;
      const expected = (await reference.execute(query)).rows as Row[];
      const actual = ((await database.db.execute(query)) as unknown as { rows: Row[] }).rows;
      expect(actual[0]).toMatchObject({
        zoned: expected[0]!.zoned,
        day: '2026-11-22',
        wait: expected[0]!.wait,
        days: expected[0]!.days,
      });
      expect(typeof actual[0]!.local).toBe('string');
      expect(expected[0]!.zoned).toBe('2026-11-22 08:00:00+00');
    } finally {
      await plain.close();
    }
  });

  it("starts with the page cache it is given, and PGlite's own without one", async () => {
    const { rows } = (await database.db.execute(sql`show shared_buffers`)) as unknown as { rows: unknown[] };
    expect(rows).toEqual([{ shared_buffers: testSharedBuffers }]);
    expect(pgliteStartOptions(undefined)).toEqual({});
  });

  it('maps typed selects: a timestamp column comes back as a Date', async () => {
    const [row] = await database.db.select({ occurredAt: transfers.occurredAt, amount: transfers.amountCents }).from(transfers).limit(1);
    expect(row!.occurredAt).toBeInstanceOf(Date);
    expect(Number.isNaN(row!.occurredAt.getTime())).toBe(false);
    expect(typeof row!.amount).toBe('number');
  });

  // The sandbox email outbox stands in for any table: each row's id is chosen, so a repeat is a unique violation.
  const mail = (id: string) => ({ id, email: 'client-test@providers.test', subject: 'Test', text: 'Test' });
  const ids = {
    committed: '00000000-0000-4000-8000-00000000c001',
    rolledBack: '00000000-0000-4000-8000-00000000c002',
    inside: '00000000-0000-4000-8000-00000000c003',
    outside: '00000000-0000-4000-8000-00000000c004',
    readOnly: '00000000-0000-4000-8000-00000000c005',
    counted: '00000000-0000-4000-8000-00000000c006',
  };
  const mailIds = async () =>
    (await database.db.select({ id: sandboxEmailOutbox.id }).from(sandboxEmailOutbox).where(eq(sandboxEmailOutbox.email, 'client-test@providers.test'))).map(
      (row) => row.id,
    );

  it('commits a transaction, and rolls one back entirely when it fails', async () => {
    const before = (await mailIds()).length;

    await database.db.transaction(async (tx) => {
      await tx.insert(sandboxEmailOutbox).values(mail(ids.committed));
    });
    expect((await mailIds()).length).toBe(before + 1);

    await expect(
      database.db.transaction(async (tx) => {
        await tx.insert(sandboxEmailOutbox).values(mail(ids.rolledBack));
        // The same id again: a unique violation ends the transaction.
        await tx.insert(sandboxEmailOutbox).values(mail(ids.committed));
      }),
    ).rejects.toMatchObject({ cause: { code: '23505', constraint: 'sandbox_email_outbox_pkey' } });
    expect((await mailIds()).length).toBe(before + 1);
    expect(await mailIds()).not.toContain(ids.rolledBack);
  });

  it('runs a read read-only, refusing any write in it, and counts every other request as a change', async () => {
    const client = (database.db as unknown as { $client: ReadsAndChanges }).$client;
    const before = client.changes();
    const [read] = await client.read('select 1 as one');
    expect(read!.rows).toEqual([{ one: 1 }]);
    await expect(client.read(`insert into sandbox_email_outbox (id, email, subject, text) values ('${ids.readOnly}', 'x@providers.test', 'Read', 'only')`)).rejects.toMatchObject({
      code: '25006',
    });
    expect(client.changes()).toBe(before);

    // Even a select counts when it is not sent as a read; a transaction counts each of its statements.
    expect(await mailIds()).not.toContain(ids.readOnly);
    expect(client.changes()).toBe(before + 1);
    await database.db.transaction(async (tx) => {
      await tx.insert(sandboxEmailOutbox).values(mail(ids.counted));
    });
    expect(client.changes()).toBe(before + 4);
  });

  it('runs queries sent during a transaction after it, never inside it', async () => {
    let inserted = () => {};
    const insertDone = new Promise<void>((resolve) => (inserted = resolve));
    const failing = database.db.transaction(async (tx) => {
      await tx.insert(sandboxEmailOutbox).values(mail(ids.inside));
      inserted();
      await new Promise((resolve) => setTimeout(resolve, 50));
      throw new Error('given up');
    });
    await insertDone;
    // Sent while the transaction is open: neither sees its insert nor is rolled back with it.
    const seen = mailIds();
    const outside = database.db.insert(sandboxEmailOutbox).values(mail(ids.outside));

    await expect(failing).rejects.toThrow('given up');
    await outside;
    expect(await seen).not.toContain(ids.inside);
    expect(await mailIds()).toContain(ids.outside);
    expect(await mailIds()).not.toContain(ids.inside);
  });
});
