/**
 * A statement's month is a calendar month in US Eastern time (New York), the program's calendar:
 * a purchase at 11:30 pm on the last day in New York is on that month's statement, even though it is
 * the next month in UTC, in standard time and in daylight time; the account's first month is its
 * first movement's month there; the PDF says the dates as New York's. On PGlite and the run's
 * PostgreSQL, on a fixed clock (nothing here reads the wall clock).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/database.ts';
import { createTransfer, systemLedgerAccounts } from '../../../server/features/ledger/index.ts';
import { loadMonthStatement } from '../../../server/features/statements/index.ts';
import { statementPdf } from '../../../server/features/statements/pdf.ts';
import { loadStatements } from '../../../server/features/statements/queries.ts';
import { monthStart } from '../../../server/shared/usMonths.ts';
import { pdfText } from '../../support/pdfText.ts';
import { created, type LedgerDatabase, ledgerDatabases, newCardholderUser } from '../ledger/helpers.ts';

/** The calendar day and time of an instant in New York, the oracle the statements must agree with. */
const newYork = (instant: Date) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York', hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' })
    .format(instant)
    .replace(', ', 'T');

describe('a statement month begins at midnight in New York', () => {
  const months = ['2025', '2026'].flatMap((year) => Array.from({ length: 12 }, (_, index) => `${year}-${String(index + 1).padStart(2, '0')}`));

  it.each(months)('%s', (month) => {
    const start = monthStart(month);
    expect(newYork(start)).toBe(`${month}-01T00:00`);
    // The millisecond before is the month before, still in New York.
    expect(newYork(new Date(start.getTime() - 1)).slice(0, 7)).not.toBe(month);
  });

  it('in standard time 5 hours after UTC, in daylight time 4 (November 2026 begins on the day daylight time ends)', () => {
    expect(monthStart('2025-01').toISOString()).toBe('2025-01-01T05:00:00.000Z');
    expect(monthStart('2025-03').toISOString()).toBe('2025-03-01T05:00:00.000Z');
    expect(monthStart('2025-04').toISOString()).toBe('2025-04-01T04:00:00.000Z');
    expect(monthStart('2026-11').toISOString()).toBe('2026-11-01T04:00:00.000Z');
    expect(monthStart('2026-12').toISOString()).toBe('2026-12-01T05:00:00.000Z');
  });
});

describe.each(ledgerDatabases)('statement months in New York on $kind', ({ open }) => {
  const { settlement } = systemLedgerAccounts;
  let database: LedgerDatabase;
  let db: Database;
  let userId: string;
  let cardholder: string;

  const move = (at: string, amountCents: number, counterparty: string) =>
    created(
      createTransfer(db, {
        id: randomUUID(),
        debit: amountCents > 0 ? settlement : cardholder,
        credit: amountCents > 0 ? cardholder : settlement,
        amountCents: Math.abs(amountCents),
        kind: amountCents > 0 ? 'deposit' : 'purchase',
        counterparty,
        phase: 'posted',
        occurredAt: new Date(at),
        now: new Date(at),
      }),
    );

  beforeAll(async () => {
    database = await open();
    db = database.db;
    ({ userId, ledgerAccountId: cardholder } = await newCardholderUser(db));
    // December 31, 2024 at 10 pm in New York: January 1 in UTC.
    await move('2025-01-01T03:00:00.000Z', 50_000, 'Sunrise Home Care');
    // January 31 at 11:30 pm (EST), then February 1 at 12:30 am.
    await move('2025-02-01T04:30:00.000Z', -1_234, 'Save Mart');
    await move('2025-02-01T05:30:00.000Z', -2_000, 'Food 4 Less');
    // July 31 at 11:30 pm (EDT), then August 1 at 12:30 am.
    await move('2025-08-01T03:30:00.000Z', -3_000, 'Walgreens');
    await move('2025-08-01T04:30:00.000Z', -4_000, 'Chevron');
  });
  afterAll(async () => {
    await database?.close();
  });

  it("puts each movement in its month in New York, from the first movement's month", async () => {
    const list = await loadStatements(db, { userId, now: new Date('2025-08-15T12:00:00.000Z') });
    const byMonth = new Map(list!.map((statement) => [statement.month, statement]));
    // Opened in December 2024 in New York, though every movement is in 2025 in UTC.
    expect(list!.at(-1)).toMatchObject({ month: '2024-12', openingBalance: 0, credits: 50_000, closingBalance: 50_000 });
    expect(byMonth.get('2025-01')).toMatchObject({ credits: 0, debits: 1_234, closingBalance: 48_766 });
    expect(byMonth.get('2025-02')).toMatchObject({ credits: 0, debits: 2_000, closingBalance: 46_766 });
    expect(byMonth.get('2025-07')).toMatchObject({ openingBalance: 46_766, debits: 3_000, closingBalance: 43_766 });
    expect(byMonth.get('2025-08')).toMatchObject({ debits: 4_000, closingBalance: 39_766, inProgress: true });
    expect(list!.map((statement) => statement.month)).toHaveLength(9);
  });

  it("gives a month's statement its own rows, and its PDF says their days and the period as New York's", async () => {
    const now = new Date('2025-08-15T12:00:00.000Z');
    const january = await loadMonthStatement(db, { userId, month: '2025-01', now });
    expect(january!.rows.map((row) => row.counterparty)).toEqual(['Save Mart']);
    expect(january!.asOf.toISOString()).toBe('2025-02-01T05:00:00.000Z');
    const july = await loadMonthStatement(db, { userId, month: '2025-07', now });
    expect(july!.rows.map((row) => row.counterparty)).toEqual(['Walgreens']);
    expect(july!.asOf.toISOString()).toBe('2025-08-01T04:00:00.000Z');

    const text = (await pdfText(await statementPdf(january!, 'en', now))).replace(/\s+/g, ' ');
    expect(text).toContain('January 1, 2025 – January 31, 2025');
    expect(text).toMatch(/Jan 31 Purchase at Save Mart/);
    expect(text).toContain('Issued February 1, 2025');
    const spanish = (await pdfText(await statementPdf(july!, 'es', now))).replace(/\s+/g, ' ');
    expect(spanish).toContain('1 de julio de 2025 – 31 de julio de 2025');
    expect(spanish).toMatch(/31 jul Compra en Walgreens/);
  });
});
