/**
 * The ledger under real concurrency (PGlite runs one statement at a time, so only PostgreSQL can show
 * these races): identical requests racing make one transfer, a hold resolves once and a transfer is
 * reversed once however many ask at the same moment (between two system accounts too), no write
 * waits for the settlement account's row, and 1,000 mixed writes at once leave every invariant intact
 * and no cardholder below zero. On a database of its own on the run's PostgreSQL,
 * through a pool of 10 connections; PG_TESTS=0 leaves this out, as every PostgreSQL block.
 */
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../../../server/db/database.ts';
import { ledgerAccounts, transfers } from '../../../server/db/schema/index.ts';
import {
  balances,
  createTransfer,
  expirePendingTransfers,
  invariantReport,
  type NewTransfer,
  openCardholderLedgerAccount,
  postPendingTransfer,
  reverseTransfer,
  systemLedgerAccounts,
  type Transfer,
  voidPendingTransfer,
} from '../../../server/features/ledger/index.ts';
import { loadMonthStatement } from '../../../server/features/statements/queries.ts';
import { describeOnPostgres } from '../helpers.ts';
import { at, type LedgerDatabase, newCardholder, newCardholderUser, postgresLedgerDatabase } from './helpers.ts';

const { settlement } = systemLedgerAccounts;
const deposit = (cardholder: string, amountCents: number, id = randomUUID()): NewTransfer => ({
  id,
  debit: settlement,
  credit: cardholder,
  amountCents,
  kind: 'deposit',
  phase: 'posted',
  now: at(0),
});
const results = (answers: { result: string }[]) =>
  answers.reduce<Record<string, number>>((counts, { result }) => ({ ...counts, [result]: (counts[result] ?? 0) + 1 }), {});

describeOnPostgres('the ledger on real PostgreSQL, under concurrency', { timeout: 60_000 }, () => {
  let database: LedgerDatabase;
  let db: Database;
  beforeAll(async () => {
    database = await postgresLedgerDatabase();
    db = database.db;
  });
  afterAll(async () => {
    await database?.close();
  });

  it('runs against PostgreSQL, not PGlite (control)', async () => {
    expect(database.kind).toBe('postgres');
    const { rows } = (await db.execute(sql`select version()`)) as unknown as { rows: { version: string }[] };
    expect(rows[0]!.version).toMatch(/^PostgreSQL \d+/);
  });

  it('opens one ledger account when 20 ask for the same card account at once', async () => {
    const cardholder = await newCardholder(db);
    const [row] = await db.select({ accountId: ledgerAccounts.accountId }).from(ledgerAccounts).where(eq(ledgerAccounts.id, cardholder));

    const opened = await Promise.all(Array.from({ length: 20 }, () => openCardholderLedgerAccount(db, row!.accountId!)));

    expect(new Set(opened)).toEqual(new Set([cardholder]));
  });

  it('moves the money once when 50 identical transfers arrive at once', async () => {
    const cardholder = await newCardholder(db);
    const request = deposit(cardholder, 2500);

    const answers = await Promise.all(Array.from({ length: 50 }, () => createTransfer(db, request)));

    expect(results(answers)).toEqual({ created: 1, exists: 49 });
    const first = answers.find((answer) => answer.result === 'created') as { transfer: Transfer };
    for (const answer of answers) expect((answer as { transfer: Transfer }).transfer).toEqual(first.transfer);
    expect(await db.select({ id: transfers.id }).from(transfers).where(eq(transfers.creditLedgerAccountId, cardholder))).toHaveLength(1);
    expect(await balances(db, cardholder, at(1))).toMatchObject({ postedCents: 2500, availableCents: 2500 });
  });

  it('answers the rest exists_with_different_fields when 20 requests with one id but other accounts race', async () => {
    // Twenty pairs of cardholders with nothing in common, so no lock in common: the inserts meet only
    // at the primary key, where the ones that come second wait for the first to commit, then fail.
    const pairs: [string, string][] = [];
    for (let i = 0; i < 20; i += 1) {
      const [payer, payee] = [await newCardholder(db), await newCardholder(db)];
      await createTransfer(db, deposit(payer, 100));
      pairs.push([payer, payee]);
    }
    const id = randomUUID();

    const answers = await Promise.all(
      pairs.map(([debit, credit]) => createTransfer(db, { id, debit, credit, amountCents: 100, kind: 'purchase', phase: 'posted', now: at(1) })),
    );

    expect(results(answers)).toEqual({ created: 1, exists_with_different_fields: 19 });
    const paid = await Promise.all(pairs.map(async ([, payee]) => (await balances(db, payee, at(1)))!.postedCents));
    expect(paid.sort()).toEqual([...Array(19).fill(0), 100]);
  });

  it('spends a balance once when 50 different purchases of all of it race', async () => {
    const cardholder = await newCardholder(db);
    await createTransfer(db, deposit(cardholder, 1000));

    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        createTransfer(db, { id: randomUUID(), debit: cardholder, credit: settlement, amountCents: 1000, kind: 'purchase', phase: 'posted', now: at(1) }),
      ),
    );

    expect(results(answers)).toEqual({ created: 1, exceeds_credits: 49 });
    expect(await balances(db, cardholder, at(1))).toMatchObject({ postedCents: 0, availableCents: 0 });
  });

  it('resolves a hold once and reverses a transfer once, however many ask at once', async () => {
    const cardholder = await newCardholder(db);
    await createTransfer(db, deposit(cardholder, 5000));
    const hold = { id: randomUUID(), debit: cardholder, credit: settlement, amountCents: 3000, kind: 'purchase' as const, phase: 'pending' as const, now: at(1) };
    await createTransfer(db, hold);

    const resolutions = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        i % 2 === 0
          ? postPendingTransfer(db, { id: randomUUID(), pendingId: hold.id, amountCents: 2000, now: at(2) })
          : voidPendingTransfer(db, { id: randomUUID(), pendingId: hold.id, now: at(2) }),
      ),
    );

    const counts = results(resolutions);
    expect(counts.created).toBe(1);
    expect((counts.pending_transfer_already_posted ?? 0) + (counts.pending_transfer_already_voided ?? 0)).toBe(39);
    const posted = (resolutions.find((answer) => answer.result === 'created') as { transfer: Transfer }).transfer;
    expect(await balances(db, cardholder, at(2))).toMatchObject({ pendingDebitsCents: 0, postedCents: posted.phase === 'post_pending' ? 3000 : 5000 });

    const original = (await db.select().from(transfers).where(eq(transfers.creditLedgerAccountId, cardholder)))[0]!;
    const reversals = await Promise.all(Array.from({ length: 30 }, () => reverseTransfer(db, { id: randomUUID(), reversesId: original.id, now: at(3) })));
    const reversed = results(reversals);
    // The reversal takes the deposit back only if the cardholder still has it.
    expect(reversed.created ?? 0).toBe(posted.phase === 'post_pending' ? 0 : 1);
    expect(reversed.created === 1 ? reversed.transfer_already_reversed : reversed.exceeds_credits).toBe(posted.phase === 'post_pending' ? 30 : 29);
  });

  it("takes a tip's extra under the same lock as a purchase: racing for the last of a balance, one of them wins, never both", async () => {
    const cardholder = await newCardholder(db);
    await createTransfer(db, deposit(cardholder, 5000));
    const hold = { id: randomUUID(), debit: cardholder, credit: settlement, amountCents: 3000, kind: 'purchase' as const, phase: 'pending' as const, now: at(1) };
    await createTransfer(db, hold);

    // 2,000 available beside the hold: a tip of 1,000 and a purchase of 1,500 cannot both be paid.
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        i % 2 === 0
          ? postPendingTransfer(db, { id: randomUUID(), pendingId: hold.id, amountCents: 4000, now: at(2) })
          : createTransfer(db, { id: randomUUID(), debit: cardholder, credit: settlement, amountCents: 1500, kind: 'purchase', phase: 'posted', now: at(2) }),
      ),
    );

    const [tips, purchases] = [results(answers.filter((_, i) => i % 2 === 0)), results(answers.filter((_, i) => i % 2 === 1))];
    expect(purchases.created ?? 0).toBeLessThanOrEqual(1);
    if (tips.created === 1) {
      expect([tips, purchases]).toEqual([{ created: 1, pending_transfer_already_posted: 19 }, { exceeds_credits: 20 }]);
      expect(await balances(db, cardholder, at(2))).toMatchObject({ postedCents: 1000, pendingDebitsCents: 0, availableCents: 1000 });
    } else {
      // The purchase came first: every tip refused, the hold kept.
      expect([tips, purchases]).toEqual([{ exceeds_credits: 20 }, { created: 1, exceeds_credits: 19 }]);
      expect(await balances(db, cardholder, at(2))).toMatchObject({ postedCents: 3500, pendingDebitsCents: 3000, availableCents: 500 });
    }
    expect(await invariantReport(db)).toMatchObject({ ok: true });
  });

  it("does not wait for the settlement account's row: deposits and purchases go through while another transaction holds it", async () => {
    const cardholder = await newCardholder(db);
    await createTransfer(db, deposit(cardholder, 1000));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held!: () => void;
    const holding = new Promise<void>((resolve) => (held = resolve));
    // The lock an UPDATE of its balance columns would take (what every write took before system
    // accounts stopped keeping them).
    const holder = db.transaction(async (tx) => {
      await tx.execute(sql`select 1 from ledger_accounts where id = ${settlement} for no key update`);
      held();
      await released;
    });
    await holding;
    try {
      const writes = Promise.all([
        createTransfer(db, deposit(cardholder, 500)),
        // Covered in either order.
        createTransfer(db, { id: randomUUID(), debit: cardholder, credit: settlement, amountCents: 800, kind: 'purchase', phase: 'posted', now: at(1) }),
      ]);
      // Blocked by the held lock, these would never end: the test's own time limit fails it, naming it
      // (no guess at how long two inserts take on a slow machine).
      const answers = await writes;
      expect(results(answers)).toEqual({ created: 2 });
    } finally {
      release();
      await holder;
    }
    expect(await balances(db, cardholder, at(1))).toMatchObject({ postedCents: 700 });
  });

  it('resolves a hold between two system accounts once, however many ask at once', async () => {
    const hold = { id: randomUUID(), debit: systemLedgerAccounts.rewards_payable, credit: systemLedgerAccounts.fee_revenue, amountCents: 900, kind: 'ebt_reward' as const, phase: 'pending' as const, now: at(1) };
    await createTransfer(db, hold);

    const resolutions = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0
          ? postPendingTransfer(db, { id: randomUUID(), pendingId: hold.id, now: at(2) })
          : voidPendingTransfer(db, { id: randomUUID(), pendingId: hold.id, now: at(2) }),
      ),
    );

    const counts = results(resolutions);
    expect(counts.created).toBe(1);
    expect((counts.pending_transfer_already_posted ?? 0) + (counts.pending_transfer_already_voided ?? 0)).toBe(19);
  });

  it('keeps every invariant, and no cardholder below zero, through 1,000 mixed writes at once', async () => {
    const cardholders = await Promise.all(Array.from({ length: 8 }, () => newCardholder(db)));
    // A fixed pseudo-random sequence (mulberry32): the same writes on every run.
    let seed = 20260302;
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const below = (n: number) => Math.floor(random() * n);
    const anyone = () => cardholders[below(cardholders.length)]!;
    const holds: string[] = [];
    const writes: (() => Promise<{ result: string; transfer?: Transfer }>)[] = [];
    for (let i = 0; i < 1000; i += 1) {
      const now = at(Math.floor(i / 10));
      const roll = random();
      const id = randomUUID();
      if (roll < 0.25) {
        const request = deposit(anyone(), 1 + below(3000), id);
        writes.push(() => createTransfer(db, { ...request, now }));
      } else if (roll < 0.5) {
        const request: NewTransfer = { id, debit: anyone(), credit: settlement, amountCents: 1 + below(2500), kind: 'purchase', phase: 'posted', now };
        writes.push(() => createTransfer(db, request));
      } else if (roll < 0.7) {
        holds.push(id);
        const request: NewTransfer = { id, debit: anyone(), credit: systemLedgerAccounts.fee_revenue, amountCents: 1 + below(1500), kind: 'purchase', phase: 'pending', timeoutSeconds: 20 + below(100), now };
        writes.push(() => createTransfer(db, request));
      } else if (roll < 0.8 && holds.length > 0) {
        const pendingId = holds[below(holds.length)]!;
        const amountCents = random() < 0.5 ? undefined : 1 + below(1500);
        writes.push(() => postPendingTransfer(db, { id, pendingId, ...(amountCents !== undefined && { amountCents }), now }));
      } else if (roll < 0.9 && holds.length > 0) {
        const pendingId = holds[below(holds.length)]!;
        writes.push(() => voidPendingTransfer(db, { id, pendingId, now }));
      } else if (roll < 0.99 && writes.length > 0) {
        // A retry of an earlier write, sent again as it was.
        writes.push(writes[below(writes.length)]!);
      } else {
        writes.push(() => expirePendingTransfers(db, now).then(() => ({ result: 'swept' })));
      }
    }

    const answers = await Promise.all(writes.map((write) => write()));

    const counts = results(answers);
    expect(counts.created).toBeGreaterThan(300);
    expect(counts.exceeds_credits).toBeGreaterThan(0);
    const report = await invariantReport(db);
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
    // Each 'created' answer moved its money once, and nothing else moved any.
    const posted = new Map(cardholders.map((cardholder) => [cardholder, 0]));
    for (const answer of answers) {
      if (answer.result !== 'created') continue;
      const { phase, debitLedgerAccountId, creditLedgerAccountId, amountCents } = answer.transfer!;
      if (phase !== 'posted' && phase !== 'post_pending') continue;
      if (posted.has(debitLedgerAccountId)) posted.set(debitLedgerAccountId, posted.get(debitLedgerAccountId)! - amountCents);
      if (posted.has(creditLedgerAccountId)) posted.set(creditLedgerAccountId, posted.get(creditLedgerAccountId)! + amountCents);
    }
    for (const cardholder of cardholders) {
      const balance = (await balances(db, cardholder, at(1000)))!;
      expect(balance.postedCents).toBe(posted.get(cardholder));
      expect(balance.availableCents).toBeGreaterThanOrEqual(0);
    }
    // Every expired hold voided once more by a late sweep leaves the ledger as consistent.
    await expirePendingTransfers(db, at(1000));
    expect((await invariantReport(db)).ok).toBe(true);
  });

  /** Whether some statement of this database waits for a row lock. */
  async function someoneWaitsForALock(): Promise<boolean> {
    const { rows } = (await db.execute(
      sql`select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
    )) as unknown as { rows: { waiting: number }[] };
    return rows[0]!.waiting > 0;
  }

  /** Polls `condition` (no fixed sleep) until it holds; a hang fails within 30 s instead of running on. */
  async function until(condition: () => Promise<boolean>): Promise<void> {
    const deadline = Date.now() + 30_000;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error('waited 30 s for a lock wait that never came');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  /**
   * Holds the cardholder's ledger row locked (FOR UPDATE, as a write does), after `during`, until
   * `release` is called: answers once the lock is held and `during` done; `done` is its commit.
   */
  async function holdLock(ledgerAccountId: string, during: (tx: Database) => Promise<void> = async () => {}) {
    let release!: () => void;
    let holding!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const held = new Promise<void>((resolve) => (holding = resolve));
    const done = db.transaction(async (tx) => {
      await tx.execute(sql`select id from ledger_accounts where id = ${ledgerAccountId} for update`);
      await during(tx);
      holding();
      await released;
    });
    await Promise.race([held, done]);
    return { release, done };
  }

  it("times a transfer when it holds the cardholder's lock, not before its wait for it (a month's end may pass meanwhile)", async () => {
    const cardholder = await newCardholder(db);
    await createTransfer(db, deposit(cardholder, 5000));
    const held = await holdLock(cardholder);
    const purchase = createTransfer(db, { id: randomUUID(), debit: cardholder, credit: settlement, amountCents: 700, kind: 'purchase', phase: 'posted' });
    await until(someoneWaitsForALock);
    const releasedAt = Date.now();
    held.release();
    await held.done;
    const answer = await purchase;
    expect(answer.result).toBe('created');
    expect((answer as { transfer: Transfer }).transfer.occurredAt.getTime()).toBeGreaterThanOrEqual(releasedAt);
  });

  it("reads a month's statement once the cardholder's writes under way have committed", async () => {
    const { userId, ledgerAccountId } = await newCardholderUser(db);
    const now = new Date();
    const id = randomUUID();
    // A write that holds the lock and has recorded its transfer, not yet committed.
    const held = await holdLock(ledgerAccountId, async (tx) => {
      await tx.insert(transfers).values({
        id,
        debitLedgerAccountId: settlement,
        creditLedgerAccountId: ledgerAccountId,
        amountCents: 1234,
        phase: 'posted',
        kind: 'deposit',
        occurredAt: now,
      });
      await tx.update(ledgerAccounts).set({ creditsPosted: 1234 }).where(eq(ledgerAccounts.id, ledgerAccountId));
    });
    const statement = loadMonthStatement(db, { userId, month: now.toISOString().slice(0, 7), now });
    let read = false;
    void statement.then(() => (read = true));
    await until(async () => read || (await someoneWaitsForALock()));
    expect(read, 'the statement waits for the write under way').toBe(false);
    held.release();
    await held.done;
    expect((await statement)!.rows.map((row) => row.id)).toEqual([id]);
  });
});
