/**
 * The embedded database's client (server/db/pgliteClient.ts) runs PGlite in a worker thread, with
 * Drizzle's parsers set once there. Drizzle must see exactly what it would see in-thread: dates as
 * Postgres writes them, transactions that commit and roll back, database errors with their codes, and
 * queries from elsewhere never running inside someone else's transaction.
 */
import { PGlite } from '@electric-sql/pglite';
import { eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type OpenDatabase, openDatabase } from '../../server/db/database.ts';
import { accounts, ledgerTransactions } from '../../server/db/schema/index.ts';
import { seedDemoData } from '../../server/seed.ts';

let database: OpenDatabase;
let accountId: string;

beforeAll(async () => {
  database = await openDatabase({});
  await seedDemoData(database.db);
  const [account] = await database.db.select({ id: accounts.id }).from(accounts).limit(1);
  accountId = account!.id;
});
afterAll(() => database.close());

describe('the embedded database client', () => {
  it('refuses calls once closed, and a normal close is not reported as a failure', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const closing = await openDatabase({});
      await closing.close();
      await expect(closing.db.execute(sql`select 1`)).rejects.toMatchObject({ cause: { message: expect.stringContaining('stopped') } });
      expect(errors).not.toHaveBeenCalled();
    } finally {
      errors.mockRestore();
    }
  });

  it('reads timestamps, dates and intervals as a plain per-query PGlite with Drizzle does', async () => {
    const plain = new PGlite();
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

  it('maps typed selects: a timestamp column comes back as a Date', async () => {
    const [row] = await database.db
      .select({ occurredAt: ledgerTransactions.occurredAt, amount: ledgerTransactions.amountCents })
      .from(ledgerTransactions)
      .where(eq(ledgerTransactions.accountId, accountId))
      .limit(1);
    expect(row!.occurredAt).toBeInstanceOf(Date);
    expect(Number.isNaN(row!.occurredAt.getTime())).toBe(false);
    expect(typeof row!.amount).toBe('number');
  });

  it('commits a transaction, and rolls one back entirely when it fails', async () => {
    const count = async () =>
      (await database.db.select({ id: ledgerTransactions.id }).from(ledgerTransactions).where(eq(ledgerTransactions.accountId, accountId))).length;
    const before = await count();
    const entry = { accountId, amountCents: 100, kind: 'credit', description: 'Test credit', occurredAt: new Date() };

    await database.db.transaction(async (tx) => {
      await tx.insert(ledgerTransactions).values({ ...entry, idempotencyKey: 'pglite-client-commit' });
    });
    expect(await count()).toBe(before + 1);

    await expect(
      database.db.transaction(async (tx) => {
        await tx.insert(ledgerTransactions).values({ ...entry, idempotencyKey: 'pglite-client-rollback' });
        // The same idempotency key again: a unique violation ends the transaction.
        await tx.insert(ledgerTransactions).values({ ...entry, idempotencyKey: 'pglite-client-commit' });
      }),
    ).rejects.toMatchObject({ cause: { code: '23505', constraint: 'ledger_transactions_idempotency_key_unique' } });
    expect(await count()).toBe(before + 1);
  });

  it('runs queries sent during a transaction after it, never inside it', async () => {
    const keys = async () =>
      (await database.db.select({ key: ledgerTransactions.idempotencyKey }).from(ledgerTransactions)).map((row) => row.key);
    const entry = { accountId, amountCents: 100, kind: 'credit', description: 'Test credit', occurredAt: new Date() };
    let inserted = () => {};
    const insertDone = new Promise<void>((resolve) => (inserted = resolve));
    const failing = database.db.transaction(async (tx) => {
      await tx.insert(ledgerTransactions).values({ ...entry, idempotencyKey: 'inside-the-transaction' });
      inserted();
      await new Promise((resolve) => setTimeout(resolve, 50));
      throw new Error('given up');
    });
    await insertDone;
    // Sent while the transaction is open: neither sees its insert nor is rolled back with it.
    const seen = keys();
    const outside = database.db.insert(ledgerTransactions).values({ ...entry, idempotencyKey: 'outside-the-transaction' });

    await expect(failing).rejects.toThrow('given up');
    await outside;
    expect(await seen).not.toContain('inside-the-transaction');
    expect(await keys()).toContain('outside-the-transaction');
    expect(await keys()).not.toContain('inside-the-transaction');
  });
});
