/**
 * Two edges of what a cardholder reads from the ledger, on PGlite and the run's PostgreSQL, on a fixed
 * clock: a hold made without a timeout (the ledger allows it) is money on hold, so it shows in the
 * activity and its detail like any hold; and a statement's fee total is the fees charged, part of its
 * debits, while a fee given back (a fee's reversal) is a credit, as the field says.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/database.ts';
import { loadActivityPageForSession, loadTransaction } from '../../../server/features/activity/queries.ts';
import { createTransfer, reverseTransfer, systemLedgerAccounts } from '../../../server/features/ledger/index.ts';
import { loadMonthStatement } from '../../../server/features/statements/index.ts';
import { at, created, type LedgerDatabase, ledgerDatabases, newCardholderUser } from './helpers.ts';

const { settlement, fee_revenue: feeRevenue } = systemLedgerAccounts;

describe.each(ledgerDatabases)('holds without a timeout and fee reversals on $kind', ({ open }) => {
  let database: LedgerDatabase;
  let db: Database;
  let userId: string;
  let cardholder: string;
  let holdId: string;
  const now = at(1000);

  beforeAll(async () => {
    database = await open();
    db = database.db;
    ({ userId, ledgerAccountId: cardholder } = await newCardholderUser(db));
    const write = (seconds: number, transfer: Omit<Parameters<typeof createTransfer>[1], 'id' | 'occurredAt' | 'now'>) =>
      created(createTransfer(db, { id: randomUUID(), ...transfer, occurredAt: at(seconds), now: at(seconds) } as Parameters<typeof createTransfer>[1]));
    await write(10, { debit: settlement, credit: cardholder, amountCents: 5000, kind: 'deposit', counterparty: 'Sunrise Home Care', phase: 'posted' });
    const fee = await write(20, { debit: cardholder, credit: feeRevenue, amountCents: 500, kind: 'fee', counterparty: 'physicalCard', phase: 'posted' });
    await created(reverseTransfer(db, { id: randomUUID(), reversesId: fee.transfer.id, occurredAt: at(30), now: at(30) }));
    // No timeoutSeconds: a hold that only a post or a void ends.
    const hold = await write(40, { debit: cardholder, credit: settlement, amountCents: 1875, kind: 'purchase', counterparty: 'Save Mart', phase: 'pending' });
    holdId = hold.transfer.id;
  });
  afterAll(async () => {
    await database?.close();
  });

  it('lists the hold as pending, newest first, beside every other row', async () => {
    const page = await loadActivityPageForSession(db, { userId, familyId: randomUUID(), cursor: null, limit: 25, now });
    if (page === 'revoked') throw new Error('a session nobody revoked');
    expect(page.transactions.map((row) => [row.amount, row.status])).toEqual([
      [-1875, 'pending'],
      [500, 'posted'],
      [-500, 'posted'],
      [5000, 'posted'],
    ]);
  });

  it('opens the hold as a transaction detail', async () => {
    expect(await loadTransaction(db, { userId, id: holdId, now })).toMatchObject({ id: holdId, amount: -1875, status: 'pending', heldUntil: null });
  });

  it("counts the fee charged in the month's fees and debits, and the fee given back as a credit", async () => {
    const month = `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
    const statement = await loadMonthStatement(db, { userId, month, now });
    expect(statement).toMatchObject({ fees: 500, debits: 500, credits: 5500, closingBalance: 5000 });
  });
});
