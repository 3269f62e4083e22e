/**
 * A month's statement, once the month is over, never changes: a hold made in January and settled in
 * February shows in January as pending at the month's end and is counted in February, when it
 * settled; January's totals, lines and PDF are the same before and after the settlement. On PGlite
 * and the run's PostgreSQL, on a fixed clock (nothing here reads the wall clock).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/database.ts';
import {
  createTransfer,
  postPendingTransfer,
  reverseTransfer,
  systemLedgerAccounts,
  voidPendingTransfer,
} from '../../../server/features/ledger/index.ts';
import { loadMonthStatement, type MonthStatement } from '../../../server/features/statements/index.ts';
import { statementPdf } from '../../../server/features/statements/pdf.ts';
import { loadStatements } from '../../../server/features/statements/queries.ts';
import { pdfText } from '../../support/pdfText.ts';
import { created, type LedgerDatabase, ledgerDatabases, newCardholderUser } from '../ledger/helpers.ts';

const { settlement } = systemLedgerAccounts;
/** A fixed calendar, years before the tests run. */
const on = (isoDay: string, hour = 12) => new Date(`${isoDay}T${String(hour).padStart(2, '0')}:00:00.000Z`);
const day = 86_400;

describe.each(ledgerDatabases)('a closed month on $kind', ({ open }) => {
  let database: LedgerDatabase;
  let db: Database;
  let userId: string;
  let cardholder: string;
  const holds: { settled?: string; released?: string; expiresInFebruary?: string; open?: string } = {};

  const posted = (at: Date, amountCents: number, credit: boolean, counterparty: string) =>
    created(
      createTransfer(db, {
        id: randomUUID(),
        debit: credit ? settlement : cardholder,
        credit: credit ? cardholder : settlement,
        amountCents,
        kind: credit ? 'deposit' : 'purchase',
        counterparty,
        phase: 'posted',
        occurredAt: at,
        now: at,
      }),
    );
  const hold = async (at: Date, amountCents: number, counterparty: string, timeoutSeconds?: number) =>
    (
      await created(
        createTransfer(db, {
          id: randomUUID(),
          debit: cardholder,
          credit: settlement,
          amountCents,
          kind: 'purchase',
          counterparty,
          phase: 'pending',
          ...(timeoutSeconds !== undefined && { timeoutSeconds }),
          occurredAt: at,
          now: at,
        }),
      )
    ).transfer.id;

  const january = (now: Date) => loadMonthStatement(db, { userId, month: '2025-01', now });
  const listed = async (now: Date, month: string) => (await loadStatements(db, { userId, now }))?.find((statement) => statement.month === month);

  beforeAll(async () => {
    database = await open();
    db = database.db;
    ({ userId, ledgerAccountId: cardholder } = await newCardholderUser(db));
    await posted(on('2025-01-05'), 100_000, true, 'Sunrise Home Care');
    await posted(on('2025-01-20'), 1_000, false, 'Save Mart');
    holds.settled = await hold(on('2025-01-30'), 2_500, 'Tower Cafe', 10 * day);
    holds.released = await hold(on('2025-01-31'), 999, 'Valero');
    // Times out on February 1 at noon: pending at January's end; its expiry is recorded in February.
    holds.expiresInFebruary = await hold(on('2025-01-29'), 300, 'Arco', 3 * day);
    // Times out on January 31 at noon, recorded by the next write on the account: not pending then.
    await hold(on('2025-01-25'), 700, 'Chevron', 6 * day);
    holds.open = await hold(on('2025-01-31', 20), 1_240, 'Food 4 Less');
    // Times out on January 31 at 22:00, recorded only by February's first purchase (the void timed in January).
    await hold(on('2025-01-31', 21), 400, 'Shell', 3_600);
  });
  afterAll(async () => {
    await database?.close();
  });

  const totalsAndLines = (statement: MonthStatement | null) => {
    expect(statement).not.toBeNull();
    const { month, openingBalance, closingBalance, credits, debits, fees, rows, pending, asOf, inProgress } = statement!;
    return { month, openingBalance, closingBalance, credits, debits, fees, rows, pending, asOf, inProgress };
  };

  it("keeps January's totals, lines and PDF as they were when February settles and releases January's holds", async () => {
    const earlyFebruary = on('2025-02-03');
    const before = await january(earlyFebruary);
    expect(totalsAndLines(before)).toMatchObject({
      month: '2025-01',
      openingBalance: 0,
      credits: 100_000,
      debits: 1_000,
      closingBalance: 99_000,
      inProgress: false,
      // January ends at midnight in New York (EST, UTC−5): statement months are US Eastern months.
      asOf: new Date('2025-02-01T05:00:00.000Z'),
    });
    expect(before!.rows.map((row) => [row.counterparty, row.amount])).toEqual([
      ['Sunrise Home Care', 100_000],
      ['Save Mart', -1_000],
    ]);
    // Pending at January's end: made in January, not timed out, not settled or released by then.
    expect(before!.pending.map((row) => [row.id, row.counterparty, row.amount, row.at])).toEqual([
      [holds.expiresInFebruary, 'Arco', -300, on('2025-01-29').getTime()],
      [holds.settled, 'Tower Cafe', -2_500, on('2025-01-30').getTime()],
      [holds.released, 'Valero', -999, on('2025-01-31').getTime()],
      [holds.open, 'Food 4 Less', -1_240, on('2025-01-31', 20).getTime()],
    ]);
    const listedBefore = await listed(earlyFebruary, '2025-01');
    const pdfBefore = await statementPdf(before!, 'en', earlyFebruary);

    // February: a hold settles for less, another is released, a deposit, a purchase (which records the expired holds).
    await created(postPendingTransfer(db, { id: randomUUID(), pendingId: holds.settled!, amountCents: 2_310, now: on('2025-02-04') }));
    await created(voidPendingTransfer(db, { id: randomUUID(), pendingId: holds.released!, now: on('2025-02-04') }));
    await posted(on('2025-02-05'), 48_000, true, 'Fresno County DSS');
    await posted(on('2025-02-06'), 500, false, 'Walgreens');

    const lateFebruary = on('2025-02-20');
    const after = await january(lateFebruary);
    expect(totalsAndLines(after)).toEqual(totalsAndLines(before));
    expect(await listed(lateFebruary, '2025-01')).toEqual(listedBefore);
    // Issued at the month's end, whenever it is asked for: the same file, byte for byte.
    const pdfAfter = await statementPdf(after!, 'en', lateFebruary);
    expect(Buffer.from(pdfAfter).equals(Buffer.from(pdfBefore))).toBe(true);
    const text = await pdfText(pdfAfter);
    expect(text).toContain('Pending at the end of the month');
    expect(text).toContain('Purchase at Tower Cafe');
    expect(text).toContain('-$25.00');
    for (const absent of ['Chevron', 'Shell', 'Walgreens']) expect(text).not.toContain(absent);
  });

  it('counts the fees charged among the debits, and a fee given back among the credits', async () => {
    const other = await newCardholderUser(db);
    await created(
      createTransfer(db, { id: randomUUID(), debit: settlement, credit: other.ledgerAccountId, amountCents: 2_000, kind: 'deposit', counterparty: 'Fresno County DSS', phase: 'posted', occurredAt: on('2025-03-02'), now: on('2025-03-02') }),
    );
    const fee = await created(
      createTransfer(db, { id: randomUUID(), debit: other.ledgerAccountId, credit: systemLedgerAccounts.fee_revenue, amountCents: 500, kind: 'fee', counterparty: 'physicalCard', phase: 'posted', occurredAt: on('2025-03-03'), now: on('2025-03-03') }),
    );
    await created(reverseTransfer(db, { id: randomUUID(), reversesId: fee.transfer.id, occurredAt: on('2025-03-04'), now: on('2025-03-04') }));
    const march = await loadMonthStatement(db, { userId: other.userId, month: '2025-03', now: on('2025-04-10') });
    expect(march).toMatchObject({ openingBalance: 0, credits: 2_500, debits: 500, fees: 500, feesThisYear: 500, closingBalance: 2_000 });
  });

  it("adds up the year's fees through the month (US Eastern), and says where each transaction happened", async () => {
    const other = await newCardholderUser(db);
    const move = (at: Date, debit: string, credit: string, amountCents: number, kind: 'deposit' | 'atm_withdrawal' | 'fee', counterparty: string, location: string | null = null) =>
      created(createTransfer(db, { id: randomUUID(), debit, credit, amountCents, kind, counterparty, location, phase: 'posted', occurredAt: at, now: at }));
    await move(on('2024-12-20'), settlement, other.ledgerAccountId, 10_000, 'deposit', 'Fresno County DSS');
    const fee = (at: Date, cents: number) => move(at, other.ledgerAccountId, systemLedgerAccounts.fee_revenue, cents, 'fee', 'atmWithdrawalOutOfNetwork');
    // 11:30 pm on December 31 in New York is 2025 in UTC: last year's.
    await fee(new Date('2025-01-01T04:30:00Z'), 100);
    await fee(on('2025-01-15'), 250);
    await move(on('2025-02-10'), other.ledgerAccountId, settlement, 2_000, 'atm_withdrawal', 'ATM', 'Blackstone Ave, Fresno, CA');
    await fee(on('2025-02-10'), 350);
    await fee(on('2025-03-02'), 400);
    const february = await loadMonthStatement(db, { userId: other.userId, month: '2025-02', now: on('2025-04-10') });
    expect(february).toMatchObject({ fees: 350, feesThisYear: 250 + 350 });
    expect(february!.rows.map((row) => [row.kind, row.location])).toEqual([
      ['atm_withdrawal', 'Blackstone Ave, Fresno, CA'],
      ['fee', null],
    ]);
    const december = await loadMonthStatement(db, { userId: other.userId, month: '2024-12', now: on('2025-04-10') });
    expect(december).toMatchObject({ fees: 100, feesThisYear: 100 });
  });

  it("lists a fee after the rest at the same time (an ATM's fee at its cash's time, a month's last millisecond), whatever their ids", async () => {
    const other = await newCardholderUser(db);
    const lastMillisecond = new Date('2025-07-01T03:59:59.999Z');
    const move = (id: string, debit: string, credit: string, amountCents: number, kind: 'deposit' | 'atm_withdrawal' | 'fee', counterparty: string) =>
      created(createTransfer(db, { id, debit, credit, amountCents, kind, counterparty, phase: 'posted', occurredAt: lastMillisecond, now: lastMillisecond }));
    await move(randomUUID(), settlement, other.ledgerAccountId, 5_000, 'deposit', 'Fresno County DSS');
    await move('ffffffff-0000-4000-8000-000000000001', other.ledgerAccountId, settlement, 2_000, 'atm_withdrawal', 'ATM');
    await move('00000000-0000-4000-8000-000000000001', other.ledgerAccountId, systemLedgerAccounts.fee_revenue, 250, 'fee', 'atmWithdrawalOutOfNetwork');
    const june = await loadMonthStatement(db, { userId: other.userId, month: '2025-06', now: on('2025-07-02') });
    expect(june!.rows.map((row) => row.kind).at(-1)).toBe('fee');
    expect(june).toMatchObject({ credits: 5_000, debits: 2_250, fees: 250, closingBalance: 2_750 });
  });

  it('judges the month under way as home does: a hold settled or released by a writer whose clock runs ahead is not pending', async () => {
    const other = await newCardholderUser(db);
    const at = on('2025-05-06');
    const ahead = new Date(at.getTime() + 3_600_000);
    await created(
      createTransfer(db, { id: randomUUID(), debit: settlement, credit: other.ledgerAccountId, amountCents: 10_000, kind: 'deposit', counterparty: 'Fresno County DSS', phase: 'posted', occurredAt: at, now: at }),
    );
    const holdAt = (counterparty: string) =>
      created(createTransfer(db, { id: randomUUID(), debit: other.ledgerAccountId, credit: settlement, amountCents: 400, kind: 'purchase', counterparty, phase: 'pending', occurredAt: at, now: at }));
    const released = await holdAt('Valero');
    const settled = await holdAt('Tower Cafe');
    await created(voidPendingTransfer(db, { id: randomUUID(), pendingId: released.transfer.id, now: ahead }));
    await created(postPendingTransfer(db, { id: randomUUID(), pendingId: settled.transfer.id, amountCents: 400, now: ahead }));
    // Read a minute after the holds, by an instance whose clock is right.
    const now = new Date(at.getTime() + 60_000);
    const may = await loadMonthStatement(db, { userId: other.userId, month: '2025-05', now });
    expect(may).toMatchObject({ inProgress: true, debits: 400, closingBalance: 9_600, pending: [] });
    expect((await loadStatements(db, { userId: other.userId, now }))?.[0]).toMatchObject({ month: '2025-05', onHold: 0, closingBalance: 9_600 });
  });

  it('counts the settlement in February, the month it posted, and lists what is still pending', async () => {
    const march = on('2025-03-02');
    const february = await loadMonthStatement(db, { userId, month: '2025-02', now: march });
    expect(totalsAndLines(february)).toMatchObject({ openingBalance: 99_000, credits: 48_000, debits: 2_310 + 500, closingBalance: 99_000 + 48_000 - 2_810 });
    expect(february!.rows.map((row) => [row.id, row.counterparty, row.amount, row.at])).toEqual([
      // The settlement: at the time it posted, under the hold's id (as the activity list names it).
      [holds.settled, 'Tower Cafe', -2_310, on('2025-02-04').getTime()],
      [expect.any(String), 'Fresno County DSS', 48_000, on('2025-02-05').getTime()],
      [expect.any(String), 'Walgreens', -500, on('2025-02-06').getTime()],
    ]);
    // The open hold (no timeout) is still pending at February's end; the released one is not.
    expect(february!.pending.map((row) => row.id)).toEqual([holds.open]);

    // March, under way: pending now; its closing balance is everything posted.
    const current = await loadMonthStatement(db, { userId, month: '2025-03', now: march });
    expect(totalsAndLines(current)).toMatchObject({ inProgress: true, asOf: march, openingBalance: 144_190, closingBalance: 144_190, rows: [] });
    expect(current!.pending.map((row) => row.id)).toEqual([holds.open]);
    const text = await pdfText(await statementPdf(current!, 'es', march));
    expect(text).toContain('Pendientes ahora');
    expect(text).toContain('Compra en Food 4 Less');

    // And every month chains, whenever the list is read.
    const list = await loadStatements(db, { userId, now: march });
    expect(list?.map((statement) => [statement.month, statement.openingBalance, statement.closingBalance, statement.inProgress])).toEqual([
      ['2025-03', 144_190, 144_190, true],
      ['2025-02', 99_000, 144_190, false],
      ['2025-01', 0, 99_000, false],
    ]);
  });
});
