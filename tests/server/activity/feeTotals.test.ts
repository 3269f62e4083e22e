/**
 * The fee totals of the activity list's first page (Regulation E §1005.18(c)(5): the last calendar
 * month and this calendar year so far), on PGlite and on the run's PostgreSQL: counted by US Eastern
 * months as statements count them (in standard and in daylight time; a fee at 11:30 p.m. on December 31
 * in New York is the year before's), only fees and only the cardholder's, the same year's total as the
 * statement's, and a first page kept from the month before read again once the month has changed. Fixed
 * clocks: nothing reads the wall clock.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/database.ts';
import { decodeCursor, loadActivityPageForSession } from '../../../server/features/activity/queries.ts';
import { createTransfer, reverseTransfer, systemLedgerAccounts } from '../../../server/features/ledger/index.ts';
import { loadMonthStatement } from '../../../server/features/statements/index.ts';
import { created, type LedgerDatabase, ledgerDatabases, newCardholderUser } from '../ledger/helpers.ts';

const { settlement, fee_revenue: feeRevenue } = systemLedgerAccounts;

describe.each(ledgerDatabases)('the fee totals on $kind', ({ open }) => {
  let database: LedgerDatabase;
  let db: Database;
  let userId: string;
  const familyId = randomUUID();

  const firstPage = async (now: string) => {
    const page = await loadActivityPageForSession(db, { userId, familyId, cursor: null, limit: 25, now: new Date(now) });
    if (page === 'revoked') throw new Error('revoked');
    return page;
  };

  beforeAll(async () => {
    database = await open();
    db = database.db;
    let ledgerAccount: string;
    ({ userId, ledgerAccountId: ledgerAccount } = await newCardholderUser(db));
    const other = await newCardholderUser(db);
    const move = (when: string, amountCents: number, kind: 'deposit' | 'fee' | 'purchase', account = ledgerAccount) =>
      created(
        createTransfer(db, {
          id: randomUUID(),
          debit: kind === 'deposit' ? settlement : account,
          credit: kind === 'deposit' ? account : kind === 'fee' ? feeRevenue : settlement,
          amountCents,
          kind,
          counterparty: kind === 'fee' ? 'physicalCard' : 'Save Mart',
          phase: 'posted',
          occurredAt: new Date(when),
          now: new Date(when),
        }),
      );
    await move('2025-12-01T17:00:00Z', 100_00, 'deposit');
    await move('2025-12-01T17:00:00Z', 100_00, 'deposit', other.ledgerAccountId);
    // 11:30 p.m. on December 31 in New York (EST, UTC−5): December's, in 2025.
    await move('2026-01-01T04:30:00Z', 1_00, 'fee');
    // 12:30 a.m. on January 1 in New York: January's.
    await move('2026-01-01T05:30:00Z', 2_00, 'fee');
    // A February fee given back: it was charged (the reversal is a credit on its own line, as on statements).
    const givenBack = await move('2026-02-10T17:00:00Z', 5_00, 'fee');
    await created(reverseTransfer(db, { id: randomUUID(), reversesId: givenBack.transfer.id, occurredAt: new Date('2026-02-11T17:00:00Z'), now: new Date('2026-02-11T17:00:00Z') }));
    // Not fees, or not this cardholder's.
    await move('2026-02-12T17:00:00Z', 10_00, 'purchase');
    await move('2026-02-12T17:00:00Z', 7_00, 'fee', other.ledgerAccountId);
    // 11:59 p.m. on February 28 in New York: February's; midnight on March 1 (EST until March 8): March's.
    await move('2026-03-01T04:59:00Z', 3_00, 'fee');
    await move('2026-03-01T05:00:00Z', 4_00, 'fee');
    // Daylight time (EDT, UTC−4): 11:59 p.m. on October 31 in New York is October's; midnight, November's.
    await move('2026-11-01T03:59:00Z', 6_00, 'fee');
    await move('2026-11-01T04:00:00Z', 8_00, 'fee');
  });
  afterAll(async () => {
    await database?.close();
  });

  it('totals the last calendar month and the year so far, by US Eastern months, only this cardholder\'s fees', async () => {
    expect((await firstPage('2026-03-15T16:00:00Z')).fees).toEqual({ lastMonth: '2026-02', lastMonthCents: 8_00, year: '2026', yearCents: 14_00 });
    // In January the last month is December of the year before, and the year's total starts again.
    expect((await firstPage('2026-01-20T16:00:00Z')).fees).toEqual({ lastMonth: '2025-12', lastMonthCents: 1_00, year: '2026', yearCents: 2_00 });
  });

  it('counts a month by its midnight in New York in daylight time too', async () => {
    expect((await firstPage('2026-11-15T16:00:00Z')).fees).toEqual({ lastMonth: '2026-10', lastMonthCents: 6_00, year: '2026', yearCents: 28_00 });
    expect((await firstPage('2026-12-15T16:00:00Z')).fees).toEqual({ lastMonth: '2026-11', lastMonthCents: 8_00, year: '2026', yearCents: 28_00 });
  });

  it('reads a kept first page again when the month changes, and agrees with the statement', async () => {
    // A millisecond before midnight on March 1 in New York: still February, so January is the last month.
    const february = await firstPage('2026-03-01T04:59:59.999Z');
    expect(february.fees).toEqual({ lastMonth: '2026-01', lastMonthCents: 2_00, year: '2026', yearCents: 10_00 });
    // Nothing was written since: the same first page would be kept, but the months have moved on.
    expect((await firstPage('2026-03-01T05:00:00.001Z')).fees).toEqual({ lastMonth: '2026-02', lastMonthCents: 8_00, year: '2026', yearCents: 14_00 });

    const statement = await loadMonthStatement(db, { userId, month: '2026-02', now: new Date('2026-03-15T16:00:00Z') });
    expect(statement?.fees).toBe(8_00);
    expect(statement?.feesThisYear).toBe(february.fees?.yearCents);
  });

  it('gives the totals on the first page only', async () => {
    const first = await loadActivityPageForSession(db, { userId, familyId, cursor: null, limit: 2, now: new Date('2026-03-15T16:00:00Z') });
    if (first === 'revoked' || !first.nextCursor) throw new Error('expected a next page');
    expect(first.fees?.yearCents).toBe(14_00);
    const cursor = decodeCursor(first.nextCursor);
    const next = await loadActivityPageForSession(db, { userId, familyId, cursor, limit: 2, now: new Date('2026-03-15T16:00:00Z') });
    if (next === 'revoked') throw new Error('revoked');
    expect(next.transactions).toHaveLength(2);
    expect(next).not.toHaveProperty('fees');
  });
});
