/**
 * statementRows (server/db/prepared.ts), which runs the ledger's writes: the same rows as Drizzle's
 * execute on both databases; on PostgreSQL one named statement per text on a connection, whatever the
 * values, inside a transaction as outside.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/database.ts';
import { statementRows } from '../../../server/db/prepared.ts';
import { systemLedgerAccounts } from '../../../server/features/ledger/index.ts';
import { type LedgerDatabase, ledgerDatabases, newCardholder } from './helpers.ts';

const accountQuery = (id: string) => sql`select id, kind from ledger_accounts where id = ${id}`;

/** Opens the database before the block's tests and closes it after: the block's `db`. */
function openedDatabase(open: () => Promise<LedgerDatabase>): { db: () => Database } {
  let database: LedgerDatabase | undefined;
  beforeAll(async () => {
    database = await open();
  });
  afterAll(async () => {
    await database?.close();
  });
  return { db: () => database!.db };
}

describe.each(ledgerDatabases)('statementRows on $kind', ({ open }) => {
  const opened = openedDatabase(open);

  it('answers the rows Drizzle would, in a transaction and outside one', async () => {
    const db = opened.db();
    const cardholder = await newCardholder(db);
    const expected = ((await db.execute(accountQuery(cardholder))) as unknown as { rows: unknown[] }).rows;
    expect(expected).toHaveLength(1);
    expect(await statementRows(db, accountQuery(cardholder))).toEqual(expected);
    expect(await db.transaction((tx) => statementRows(tx, accountQuery(cardholder)))).toEqual(expected);
    expect(await statementRows(db, accountQuery('00000000-0000-4000-8000-000000000000'))).toEqual([]);
  });

});

describe.each(ledgerDatabases.filter((each) => each.kind === 'postgres'))('statementRows on $kind, named', ({ open }) => {
  const opened = openedDatabase(open);

  it('prepares one named statement per text on a connection, whatever the values', async () => {
    const db = opened.db();
    const cardholder = await newCardholder(db);
    const prepared = await db.transaction(async (tx) => {
      const first = await statementRows(tx, accountQuery(cardholder));
      const second = await statementRows(tx, accountQuery(systemLedgerAccounts.settlement));
      expect(first.map((row) => row.id)).toEqual([cardholder]);
      expect(second.map((row) => row.id)).toEqual([systemLedgerAccounts.settlement]);
      const { rows } = (await tx.execute(
        sql`select name from pg_prepared_statements where statement = 'select id, kind from ledger_accounts where id = $1'`,
      )) as unknown as { rows: { name: string }[] };
      return rows;
    });
    expect(prepared).toHaveLength(1);
    expect(prepared[0]!.name).toMatch(/^s_[0-9a-f]{32}$/);
  });
});
