/**
 * GET /transactions' prepared statement (server/features/activity), on PGlite (PREPARE/EXECUTE) and on
 * the run's PostgreSQL (node-postgres named statements): every kind of transfer said as activity says
 * it, pages that follow each other, the same rows as the home query's SQL, a revoked session, and a
 * prepared statement lost and made again. A fixed clock: nothing here reads the wall clock.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transaction } from '../../../contract/activity/types.ts';
import type { Database } from '../../../server/db/database.ts';
import { refreshTokens } from '../../../server/db/schema/index.ts';
import { activityRowsSql, transactionOf } from '../../../server/features/activity/index.ts';
import { literal } from '../../../server/db/prepared.ts';
import { decodeCursor, loadActivityPageForSession } from '../../../server/features/activity/queries.ts';
import {
  createTransfer,
  postPendingTransfer,
  reverseTransfer,
  systemLedgerAccounts,
  voidPendingTransfer,
} from '../../../server/features/ledger/index.ts';
import { at, created, type LedgerDatabase, ledgerDatabases, newCardholderUser } from '../ledger/helpers.ts';

const { settlement } = systemLedgerAccounts;

describe('literal (EXECUTE arguments)', () => {
  it('quotes text, writes numbers, and refuses what SQL cannot take', () => {
    expect(literal("O'Brien")).toBe("'O''Brien'");
    expect(literal("'); drop table transfers; --")).toBe("'''); drop table transfers; --'");
    expect(literal('back\\slash')).toBe("'back\\slash'");
    expect(literal(12n)).toBe('12');
    expect(literal(26)).toBe('26');
    expect(literal(null)).toBe('NULL');
    expect(() => literal(Number.NaN)).toThrow();
    expect(() => literal('a\0b')).toThrow();
  });
});

describe.each(ledgerDatabases)('the activity page on $kind', ({ open }) => {
  let database: LedgerDatabase;
  let db: Database;
  let userId: string;
  let ledgerAccount: string;
  const familyId = randomUUID();
  /** The wall clock never matters: the page is read at this time. */
  const now = at(1000);
  const page = (request: { cursor?: string | null; limit?: number; family?: string }) =>
    loadActivityPageForSession(db, {
      userId,
      familyId: request.family ?? familyId,
      cursor: request.cursor ? decodeCursor(request.cursor) : null,
      limit: request.limit ?? 25,
      now,
    });
  /** What the list must show, newest first (each written below beside the transfer that makes it). */
  const expected: Omit<Transaction, 'id'>[] = [];

  beforeAll(async () => {
    database = await open();
    db = database.db;
    ({ userId, ledgerAccountId: ledgerAccount } = await newCardholderUser(db));

    const posted = (seconds: number, amountCents: number, credit: boolean, counterparty: string) =>
      created(
        createTransfer(db, {
          id: randomUUID(),
          debit: credit ? settlement : ledgerAccount,
          credit: credit ? ledgerAccount : settlement,
          amountCents,
          kind: credit ? 'deposit' : 'purchase',
          counterparty,
          phase: 'posted',
          occurredAt: at(seconds),
          now: at(seconds),
        }),
      );
    const hold = (seconds: number, amountCents: number, counterparty: string, timeoutSeconds?: number) =>
      created(
        createTransfer(db, {
          id: randomUUID(),
          debit: ledgerAccount,
          credit: settlement,
          amountCents,
          kind: 'purchase',
          counterparty,
          location: 'Fresno, CA',
          phase: 'pending',
          ...(timeoutSeconds !== undefined && { timeoutSeconds }),
          occurredAt: at(seconds),
          now: at(seconds),
        }),
      );
    const row = (seconds: number, amount: number, kind: Transaction['kind'], counterparty: string, more: Partial<Transaction> = {}) =>
      expected.unshift({ amount, timestamp: at(seconds).toISOString(), kind, status: 'posted', counterparty, location: null, heldUntil: null, ...more });

    await posted(1, 100_000, true, 'Sunrise Home Care');
    row(1, 100_000, 'deposit', 'Sunrise Home Care');
    for (let i = 0; i < 6; i += 1) {
      await posted(10 + i, 1_000 + i, false, `Store ${i}`);
      row(10 + i, -(1_000 + i), 'purchase', `Store ${i}`);
    }
    // A hold settled for less: the amount posted, at the hold's place and time.
    const settled = await hold(20, 2_500, 'Tower Cafe', 3_600);
    await created(postPendingTransfer(db, { id: randomUUID(), pendingId: settled.transfer.id, amountCents: 2_310, occurredAt: at(30), now: at(30) }));
    row(20, -2_310, 'purchase', 'Tower Cafe', { location: 'Fresno, CA' });
    // A released hold, and one past its timeout that nothing recorded yet: neither is activity.
    const released = await hold(40, 999, 'Valero');
    await created(voidPendingTransfer(db, { id: randomUUID(), pendingId: released.transfer.id, now: at(41) }));
    await hold(50, 700, 'Chevron', 60);
    // A hold still pending at `now`: pending, with when it is released.
    await hold(60, 1_240, 'Save Mart', 7_200);
    row(60, -1_240, 'purchase', 'Save Mart', { status: 'pending', location: 'Fresno, CA', heldUntil: at(7_260).toISOString() });
    // A reversal of a purchase: money back.
    const refunded = await posted(70, 400, false, 'Walgreens');
    row(70, -400, 'purchase', 'Walgreens');
    await created(reverseTransfer(db, { id: randomUUID(), reversesId: refunded.transfer.id, occurredAt: at(80), now: at(80) }));
    row(80, 400, 'reversal', 'Walgreens');
  });
  afterAll(async () => {
    await database?.close();
  });

  /** Every page of `limit`, following the cursors. */
  async function allPages(limit: number): Promise<Transaction[][]> {
    const pages: Transaction[][] = [];
    let cursor: string | null = null;
    do {
      const answer = await page({ cursor, limit });
      if (answer === 'revoked') throw new Error('revoked');
      pages.push(answer.transactions);
      cursor = answer.nextCursor;
    } while (cursor);
    return pages;
  }

  it('says every transfer as activity does, newest first, over pages that follow each other', async () => {
    const one = await page({});
    if (one === 'revoked') throw new Error('revoked');
    expect(one.nextCursor).toBeNull();
    expect(one.transactions.map(({ id: _id, ...rest }) => rest)).toEqual(expected);
    for (const limit of [1, 3, 5]) {
      const pages = await allPages(limit);
      expect(pages.flat()).toEqual(one.transactions);
      expect(pages.slice(0, -1).every((rows) => rows.length === limit)).toBe(true);
    }
  });

  it("gives the same rows as the home query's SQL", async () => {
    const { rows } = (await db.execute(
      sql`select * from (${activityRowsSql(sql`${ledgerAccount}::uuid`, { limit: 4, now: sql`${now.toISOString()}::timestamptz` })}) activity`,
    )) as unknown as { rows: Parameters<typeof transactionOf>[0][] };
    const first = await page({ limit: 4 });
    expect(first !== 'revoked' && first.transactions).toEqual(rows.map(transactionOf));
  });

  it('answers revoked for a revoked session, whatever the page', async () => {
    const revokedFamily = randomUUID();
    await db.insert(refreshTokens).values({ userId, familyId: revokedFamily, tokenHash: randomUUID(), expiresAt: at(99_999), revokedAt: at(500) });
    const first = await page({ limit: 2 });
    expect(first).not.toBe('revoked');
    expect(await page({ family: revokedFamily })).toBe('revoked');
    expect(await page({ family: revokedFamily, cursor: first !== 'revoked' ? first.nextCursor : null, limit: 2 })).toBe('revoked');
  });

  it('answers the same to many calls at once, and after its prepared statements are gone', async () => {
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => page({ limit: 7 })));
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    // On PGlite the statements are prepared in its one session; DEALLOCATE drops them, and the next
    // call prepares them again. (On PostgreSQL this runs on one pooled connection of several.)
    if (database.kind === 'pglite') await db.execute(sql`deallocate all`);
    expect(await page({ limit: 7 })).toEqual(answers[0]);
  });
});
