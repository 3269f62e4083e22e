/**
 * GET /transactions gives a kept first page only while it is still the page: the ledger account
 * unchanged since (its version) and no hold it read timed out; a revoked session never gets it, and
 * later pages are read each time. On PGlite, while nothing but reads reached the database, the
 * same session gets it without even the version being read. On PGlite and on the run's PostgreSQL,
 * with a fixed clock.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/database.ts';
import { refreshTokens } from '../../../server/db/schema/index.ts';
import { decodeCursor, loadActivityPageForSession } from '../../../server/features/activity/queries.ts';
import { createTransfer, postPendingTransfer, systemLedgerAccounts } from '../../../server/features/ledger/index.ts';
import { countingStatements } from '../../support/countingStatements.ts';
import { at, created, type LedgerDatabase, ledgerDatabases, newCardholderUser } from '../ledger/helpers.ts';

const { settlement } = systemLedgerAccounts;

describe.each(ledgerDatabases)('kept first pages of activity on $kind', ({ kind, open }) => {
  let database: LedgerDatabase;
  let db: Database;
  const familyId = randomUUID();

  beforeAll(async () => {
    database = await open();
    db = database.db;
  });
  afterAll(async () => {
    await database?.close();
  });

  /** A new cardholder, and what reads their activity (through `reader`, the database unless given). */
  async function cardholder() {
    const { userId, ledgerAccountId } = await newCardholderUser(db);
    const page = async (request: { now: Date; limit?: number; cursor?: string | null; family?: string; reader?: Database }) => {
      const answer = await loadActivityPageForSession(request.reader ?? db, {
        userId,
        familyId: request.family ?? familyId,
        cursor: request.cursor ? decodeCursor(request.cursor) : null,
        limit: request.limit ?? 25,
        now: request.now,
      });
      if (answer === 'revoked') throw new Error('revoked');
      return answer;
    };
    const deposit = (seconds: number, counterparty = 'Sunrise Home Care') =>
      created(
        createTransfer(db, {
          id: randomUUID(),
          debit: settlement,
          credit: ledgerAccountId,
          amountCents: 10_000,
          kind: 'deposit',
          counterparty,
          phase: 'posted',
          occurredAt: at(seconds),
          now: at(seconds),
        }),
      );
    const hold = (seconds: number, timeoutSeconds: number) =>
      created(
        createTransfer(db, {
          id: randomUUID(),
          debit: ledgerAccountId,
          credit: settlement,
          amountCents: 1_240,
          kind: 'purchase',
          counterparty: 'Save Mart',
          phase: 'pending',
          timeoutSeconds,
          occurredAt: at(seconds),
          now: at(seconds),
        }),
      );
    return { userId, ledgerAccountId, page, deposit, hold };
  }

  it('is given again while nothing changed, after reading only the version (on PGlite, nothing); page sizes are kept apart', async () => {
    const { page, deposit } = await cardholder();
    await deposit(1);
    const { db: reader, runs } = countingStatements(db);
    const first = await page({ now: at(100), reader });
    expect(await page({ now: at(200), reader })).toEqual(first);
    expect(await page({ now: at(200), limit: 5, reader })).toEqual(first);
    expect(runs).toEqual(['activity_page_first_26', ...(kind === 'pglite' ? [] : ['activity_version']), 'activity_page_first_6']);
  });

  it('on PGlite, is given with nothing read while only reads reached the database, to the session it was checked for', async () => {
    const { userId, page, deposit } = await cardholder();
    await deposit(1);
    const session = randomUUID();
    // A session of hers revoked before the page is read: nothing is written after that.
    const revokedFamily = randomUUID();
    await db.insert(refreshTokens).values({ userId, familyId: revokedFamily, tokenHash: randomUUID(), expiresAt: at(99_999), revokedAt: at(5) });
    const { db: reader, runs } = countingStatements(db);
    const first = await page({ now: at(100), reader, family: session });
    expect(runs).toEqual(['activity_page_first_26']);
    runs.length = 0;

    expect(await page({ now: at(200), reader, family: session })).toEqual(first);
    const unchanged = kind === 'pglite' ? [] : ['activity_version'];
    expect(runs).toEqual(unchanged);
    // Another session of the same cardholder: whether it was revoked is read.
    await expect(page({ now: at(200), reader, family: revokedFamily })).rejects.toThrow('revoked');
    const otherFamily = randomUUID();
    expect(await page({ now: at(200), reader, family: otherFamily })).toEqual(first);
    expect(runs).toEqual([...unchanged, 'activity_version', 'activity_version']);

    // Any write, another cardholder's deposit here: the version is read, then again nothing.
    runs.length = 0;
    await (await cardholder()).deposit(150);
    expect(await page({ now: at(200), reader, family: session })).toEqual(first);
    expect(await page({ now: at(200), reader, family: session })).toEqual(first);
    expect(runs).toEqual(['activity_version', ...unchanged]);

    // Revoking this very session is a write: the next page is refused.
    await db.insert(refreshTokens).values({ userId, familyId: session, tokenHash: randomUUID(), expiresAt: at(99_999), revokedAt: at(201) });
    await expect(page({ now: at(202), reader, family: session })).rejects.toThrow('revoked');
  });

  it('is read again after a transfer of the account: a new deposit, a hold posted', async () => {
    const { page, deposit, hold } = await cardholder();
    await deposit(1);
    const held = await hold(2, 3_600);
    expect((await page({ now: at(10) })).transactions.map((row) => row.status)).toEqual(['pending', 'posted']);

    await deposit(3, 'Kept Pages Payroll');
    expect((await page({ now: at(10) })).transactions[0]).toMatchObject({ counterparty: 'Kept Pages Payroll', amount: 10_000 });

    await created(postPendingTransfer(db, { id: randomUUID(), pendingId: held.transfer.id, amountCents: 1_000, now: at(4) }));
    expect((await page({ now: at(10) })).transactions[1]).toMatchObject({ counterparty: 'Save Mart', status: 'posted', amount: -1_000 });
  });

  it('ends when a hold it shows times out, with no write in between, and is not given for a time before it was read', async () => {
    const { page, deposit, hold } = await cardholder();
    await deposit(1);
    const held = await hold(2, 60);
    const shown = await page({ now: at(10) });
    expect(shown.transactions.map((row) => row.id)).toContain(held.transfer.id);

    const later = await page({ now: at(63) });
    expect(later.transactions.map((row) => row.id)).not.toContain(held.transfer.id);
    // Kept now is the page read at 63 s: at 10 s the hold still shows.
    expect(await page({ now: at(10) })).toEqual(shown);
  });

  it('ends when a hold read past the page times out: the page then has no next one', async () => {
    const { page, deposit, ledgerAccountId } = await cardholder();
    // Money on its way in (a cash load not yet arrived): a hold that needs no balance.
    await created(
      createTransfer(db, {
        id: randomUUID(),
        debit: settlement,
        credit: ledgerAccountId,
        amountCents: 2_000,
        kind: 'cash_load',
        counterparty: 'Kept Pages Market',
        phase: 'pending',
        timeoutSeconds: 60,
        occurredAt: at(1),
        now: at(1),
      }),
    );
    await deposit(2);
    const shown = await page({ now: at(10), limit: 1 });
    expect(shown.transactions).toHaveLength(1);
    expect(shown.nextCursor).not.toBeNull();
    const later = await page({ now: at(62), limit: 1 });
    expect(later.transactions).toEqual(shown.transactions);
    expect(later.nextCursor).toBeNull();
  });

  it('is not given to a revoked session, and later pages are read each time', async () => {
    const { userId, page, deposit } = await cardholder();
    await deposit(1);
    await deposit(2);
    const first = await page({ now: at(10), limit: 1 });
    const revokedFamily = randomUUID();
    await db.insert(refreshTokens).values({ userId, familyId: revokedFamily, tokenHash: randomUUID(), expiresAt: at(99_999), revokedAt: at(5) });
    await expect(page({ now: at(10), limit: 1, family: revokedFamily })).rejects.toThrow('revoked');

    const { db: reader, runs } = countingStatements(db);
    const second = await page({ now: at(10), limit: 1, cursor: first.nextCursor, reader });
    expect(await page({ now: at(10), limit: 1, cursor: first.nextCursor, reader })).toEqual(second);
    expect(runs).toEqual(['activity_page_after_2', 'activity_page_after_2']);
  });
});
