/**
 * The ledger's writes, one result at a time: created, exists, exists_with_different_fields, every
 * refusal, holds posted (all or part), voided and expired, reversals, and the database refusing to
 * change a transfer. Each runs on PGlite and on the run's PostgreSQL (PG_TESTS=0 leaves that out).
 */
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  setCushion,
  systemLedgerAccounts,
  transferIdFor,
  voidPendingTransfer,
} from '../../../server/features/ledger/index.ts';
import { at, type LedgerDatabase, ledgerDatabases, newCardholder, pgliteLedgerDatabase } from './helpers.ts';

const { settlement, fee_revenue: feeRevenue } = systemLedgerAccounts;

describe.each(ledgerDatabases)('the ledger on $kind', ({ open }) => {
  let database: LedgerDatabase;
  let db: Database;
  beforeAll(async () => {
    database = await open();
    db = database.db;
  });
  afterAll(async () => {
    // Whatever the tests did, the ledger adds up.
    if (db) expect(await invariantReport(db)).toMatchObject({ ok: true, problems: [] });
    await database?.close();
  });

  /** A cardholder with `cents` deposited at at(0). */
  async function fundedCardholder(cents: number): Promise<string> {
    const cardholder = await newCardholder(db);
    const deposit = await createTransfer(db, { ...deposited(cardholder, cents), now: at(0) });
    expect(deposit.result).toBe('created');
    return cardholder;
  }
  const deposited = (cardholder: string, amountCents: number): NewTransfer => ({
    id: randomUUID(),
    debit: settlement,
    credit: cardholder,
    amountCents,
    kind: 'deposit',
    phase: 'posted',
    counterparty: 'Sunrise Home Care',
  });
  const purchase = (cardholder: string, amountCents: number, now = at(1)): NewTransfer => ({
    id: randomUUID(),
    debit: cardholder,
    credit: settlement,
    amountCents,
    kind: 'purchase',
    phase: 'posted',
    counterparty: 'Save Mart',
    location: 'Fresno, CA',
    now,
  });
  const hold = (cardholder: string, amountCents: number, timeoutSeconds?: number): NewTransfer => ({
    ...purchase(cardholder, amountCents),
    phase: 'pending',
    ...(timeoutSeconds !== undefined && { timeoutSeconds }),
  });
  const available = async (ledgerAccountId: string, now = at(1)) => (await balances(db, ledgerAccountId, now))!.availableCents;
  const transferCount = async () => (await db.select({ n: sql<number>`count(*)::int` }).from(transfers))[0]!.n;

  describe('accounts', () => {
    it('has the four system accounts under their fixed ids', async () => {
      const rows = await db.select({ id: ledgerAccounts.id, kind: ledgerAccounts.kind }).from(ledgerAccounts).where(sql`${ledgerAccounts.accountId} is null`);
      expect(Object.fromEntries(rows.map((row) => [row.kind, row.id]))).toEqual(systemLedgerAccounts);
    });

    it('opens one ledger account per card account, however often asked, with a floor at zero', async () => {
      const cardholder = await newCardholder(db);
      const [row] = await db.select().from(ledgerAccounts).where(eq(ledgerAccounts.id, cardholder));

      expect(await openCardholderLedgerAccount(db, row!.accountId!)).toBe(cardholder);
      expect(row).toMatchObject({ kind: 'cardholder', debitsMustNotExceedCredits: true, cushionCents: 0 });
      expect(await balances(db, cardholder, at(0))).toEqual({ postedCents: 0, pendingDebitsCents: 0, pendingCreditsCents: 0, availableCents: 0, cushionCents: 0 });
      expect(await balances(db, randomUUID(), at(0))).toBeNull();
      // The database refuses a cardholder's account without its floor: it could spend what it has not.
      const floorless = { cause: expect.objectContaining({ message: expect.stringContaining('ledger_accounts_cardholder_has_floor') }) };
      await expect(db.update(ledgerAccounts).set({ debitsMustNotExceedCredits: false }).where(eq(ledgerAccounts.id, cardholder))).rejects.toMatchObject(floorless);
    });

    it('keeps no balance columns on a system account: its balances are what its transfers add up to', async () => {
      const cardholder = await fundedCardholder(1000);
      const before = (await balances(db, feeRevenue, at(1)))!;

      await createTransfer(db, { ...purchase(cardholder, 300), credit: feeRevenue, kind: 'fee' });
      await createTransfer(db, { ...hold(cardholder, 200), credit: feeRevenue });

      expect(await balances(db, feeRevenue, at(1))).toEqual({
        ...before,
        postedCents: before.postedCents + 300,
        pendingCreditsCents: before.pendingCreditsCents + 200,
        availableCents: before.availableCents + 300,
      });
      const [row] = await db.select().from(ledgerAccounts).where(eq(ledgerAccounts.id, feeRevenue));
      expect(row).toMatchObject({ debitsPending: 0, debitsPosted: 0, creditsPending: 0, creditsPosted: 0, cushionCents: 0, debitsMustNotExceedCredits: false });
      // The database refuses balance columns on a system account; a system account has no cushion.
      const refused = { cause: expect.objectContaining({ message: expect.stringContaining('ledger_accounts_system_keeps_no_balances') }) };
      await expect(db.update(ledgerAccounts).set({ creditsPosted: 1 }).where(eq(ledgerAccounts.id, settlement))).rejects.toMatchObject(refused);
      expect(await setCushion(db, { ledgerAccountId: settlement, cushionCents: 100 })).toEqual({ result: 'account_not_found' });
    });

    it('moves money between two system accounts, and resolves a hold between them once', async () => {
      const { cushion_funding: cushionFunding, rewards_payable: rewardsPayable } = systemLedgerAccounts;
      const before = (await balances(db, cushionFunding, at(1)))!.postedCents;
      const moved = { id: randomUUID(), debit: settlement, credit: cushionFunding, amountCents: 700, kind: 'cushion' as const, phase: 'posted' as const, now: at(1) };
      expect((await createTransfer(db, moved)).result).toBe('created');
      expect((await createTransfer(db, moved)).result).toBe('exists');
      expect((await balances(db, cushionFunding, at(1)))!.postedCents).toBe(before + 700);

      const held = { id: randomUUID(), debit: rewardsPayable, credit: feeRevenue, amountCents: 400, kind: 'ebt_reward' as const, phase: 'pending' as const, now: at(1) };
      expect((await createTransfer(db, held)).result).toBe('created');
      const post = { id: randomUUID(), pendingId: held.id, amountCents: 300, now: at(2) };
      expect((await postPendingTransfer(db, post)).result).toBe('created');
      expect((await postPendingTransfer(db, post)).result).toBe('exists');
      expect(await voidPendingTransfer(db, { id: randomUUID(), pendingId: held.id, now: at(2) })).toEqual({ result: 'pending_transfer_already_posted' });
    });
  });

  describe('createTransfer', () => {
    it('creates a transfer and moves both accounts', async () => {
      const cardholder = await newCardholder(db);
      const settlementBefore = (await balances(db, settlement, at(0)))!.postedCents;
      const deposit = deposited(cardholder, 61240);

      const answer = await createTransfer(db, { ...deposit, now: at(0) });

      expect(answer).toEqual({
        result: 'created',
        transfer: expect.objectContaining({
          id: deposit.id,
          debitLedgerAccountId: settlement,
          creditLedgerAccountId: cardholder,
          amountCents: 61240,
          phase: 'posted',
          kind: 'deposit',
          counterparty: 'Sunrise Home Care',
          location: null,
          pendingId: null,
          timeoutAt: null,
          occurredAt: at(0),
        }),
      });
      expect(await balances(db, cardholder, at(0))).toMatchObject({ postedCents: 61240, availableCents: 61240 });
      expect((await balances(db, settlement, at(0)))!.postedCents).toBe(settlementBefore - 61240);
    });

    it('answers a retry with the same id and fields with the first transfer, and moves nothing again', async () => {
      const cardholder = await newCardholder(db);
      const deposit = { ...deposited(cardholder, 2500), occurredAt: at(0) };
      const first = await createTransfer(db, { ...deposit, now: at(0) });
      const count = await transferCount();

      const retried = await createTransfer(db, { ...deposit, now: at(30) });
      // Left out, the time is not compared: a retry later is still the same request.
      const withoutTime = await createTransfer(db, { ...deposit, occurredAt: undefined, now: at(60) });

      expect(first.result).toBe('created');
      expect(retried).toEqual({ result: 'exists', transfer: (first as { transfer: unknown }).transfer });
      expect(withoutTime.result).toBe('exists');
      expect(await transferCount()).toBe(count);
      expect(await available(cardholder)).toBe(2500);
    });

    it('refuses the same id with other fields (exists_with_different_fields)', async () => {
      const cardholder = await newCardholder(db);
      const deposit = deposited(cardholder, 2500);
      await createTransfer(db, { ...deposit, now: at(0) });

      for (const other of [
        { ...deposit, amountCents: 2600 },
        { ...deposit, kind: 'card_load' as const },
        { ...deposit, counterparty: 'Someone else' },
        { ...deposit, credit: feeRevenue },
        { ...deposit, phase: 'pending' as const },
        { ...deposit, occurredAt: at(5) },
      ]) {
        expect(await createTransfer(db, { ...other, now: at(1) })).toEqual({ result: 'exists_with_different_fields' });
      }
      expect(await available(cardholder)).toBe(2500);
    });

    it('refuses to take a cardholder below zero (exceeds_credits), and allows exactly zero', async () => {
      const cardholder = await fundedCardholder(5000);
      const count = await transferCount();

      expect(await createTransfer(db, purchase(cardholder, 5001))).toEqual({ result: 'exceeds_credits' });
      expect(await transferCount()).toBe(count);
      expect((await createTransfer(db, purchase(cardholder, 5000))).result).toBe('created');
      expect(await available(cardholder)).toBe(0);
      expect(await createTransfer(db, purchase(cardholder, 1))).toEqual({ result: 'exceeds_credits' });
    });

    it('lets a cushion take a cardholder below zero by exactly its amount', async () => {
      const cardholder = await fundedCardholder(1000);
      expect(await setCushion(db, { ledgerAccountId: cardholder, cushionCents: 500, now: at(1) })).toEqual({ result: 'updated' });
      expect(await available(cardholder)).toBe(1500);

      expect(await createTransfer(db, purchase(cardholder, 1501))).toEqual({ result: 'exceeds_credits' });
      expect((await createTransfer(db, purchase(cardholder, 1500))).result).toBe('created');

      expect(await balances(db, cardholder, at(2))).toMatchObject({ postedCents: -500, availableCents: 0, cushionCents: 500 });
      // The cushion in use cannot be taken away; once paid back, it can.
      expect(await setCushion(db, { ledgerAccountId: cardholder, cushionCents: 0, now: at(2) })).toEqual({ result: 'cushion_in_use' });
      await createTransfer(db, { ...deposited(cardholder, 500), now: at(3) });
      expect(await setCushion(db, { ledgerAccountId: cardholder, cushionCents: 0, now: at(3) })).toEqual({ result: 'updated' });
      // A hold on the cushion that has expired no longer uses it.
      await setCushion(db, { ledgerAccountId: cardholder, cushionCents: 500, now: at(3) });
      expect((await createTransfer(db, { ...hold(cardholder, 500, 10), occurredAt: at(3), now: at(3) })).result).toBe('created');
      expect(await setCushion(db, { ledgerAccountId: cardholder, cushionCents: 0, now: at(12) })).toEqual({ result: 'cushion_in_use' });
      expect(await setCushion(db, { ledgerAccountId: cardholder, cushionCents: 0, now: at(13) })).toEqual({ result: 'updated' });
      expect(await balances(db, cardholder, at(13))).toMatchObject({ postedCents: 0, pendingDebitsCents: 0, availableCents: 0, cushionCents: 0 });
      expect(await setCushion(db, { ledgerAccountId: randomUUID(), cushionCents: 0 })).toEqual({ result: 'account_not_found' });
      expect(await setCushion(db, { ledgerAccountId: cardholder, cushionCents: -1 })).toEqual({ result: 'invalid_amount' });
    });

    it('refuses malformed transfers before looking at the database', async () => {
      const cardholder = await newCardholder(db);
      for (const amountCents of [0, -100, 12.5, Number.MAX_SAFE_INTEGER + 1]) {
        expect(await createTransfer(db, { ...deposited(cardholder, amountCents), now: at(0) })).toEqual({ result: 'invalid_amount' });
      }
      expect(await createTransfer(db, { ...deposited(settlement, 100), now: at(0) })).toEqual({ result: 'accounts_must_be_different' });
      // 9e12 s is past the last time a Date holds: refused, not a thrown RangeError.
      for (const timeoutSeconds of [0, -5, 1.5, 9e12]) {
        expect(await createTransfer(db, hold(cardholder, 100, timeoutSeconds))).toEqual({ result: 'invalid_timeout' });
      }
      // A hold placed long ago whose timeout has already passed.
      expect(await createTransfer(db, { ...hold(cardholder, 100, 60), occurredAt: at(-120), now: at(0) })).toEqual({ result: 'invalid_timeout' });
    });

    it('refuses unknown accounts', async () => {
      const cardholder = await fundedCardholder(1000);
      expect(await createTransfer(db, { ...purchase(cardholder, 100), debit: randomUUID() })).toEqual({ result: 'debit_account_not_found' });
      expect(await createTransfer(db, { ...purchase(cardholder, 100), credit: randomUUID() })).toEqual({ result: 'credit_account_not_found' });
    });

    it("runs inside the caller's transaction: rolled back with it, or committed with it", async () => {
      const cardholder = await newCardholder(db);
      const rolledBack = deposited(cardholder, 700);
      await expect(
        db.transaction(async (tx) => {
          expect((await createTransfer(tx, { ...rolledBack, now: at(0) })).result).toBe('created');
          throw new Error('the caller changes its mind');
        }),
      ).rejects.toThrow('the caller changes its mind');
      expect(await available(cardholder)).toBe(0);

      await db.transaction(async (tx) => {
        expect((await createTransfer(tx, { ...rolledBack, now: at(0) })).result).toBe('created');
        expect((await createTransfer(tx, { ...rolledBack, now: at(0) })).result).toBe('exists');
      });
      expect(await available(cardholder)).toBe(700);
    });
  });

  describe('pending transfers', () => {
    it('holds the amount, then posts all of it', async () => {
      const cardholder = await fundedCardholder(10000);
      const pending = hold(cardholder, 4000);
      expect((await createTransfer(db, pending)).result).toBe('created');
      expect(await balances(db, cardholder, at(1))).toMatchObject({ postedCents: 10000, pendingDebitsCents: 4000, availableCents: 6000 });
      expect(await createTransfer(db, purchase(cardholder, 6001))).toEqual({ result: 'exceeds_credits' });

      const post = { id: randomUUID(), pendingId: pending.id, now: at(2) };
      const posted = await postPendingTransfer(db, post);

      expect(posted).toEqual({
        result: 'created',
        transfer: expect.objectContaining({ phase: 'post_pending', pendingId: pending.id, amountCents: 4000, debitLedgerAccountId: cardholder, kind: 'purchase', counterparty: 'Save Mart' }),
      });
      expect(await balances(db, cardholder, at(2))).toMatchObject({ postedCents: 6000, pendingDebitsCents: 0, availableCents: 6000 });
      expect(await postPendingTransfer(db, { ...post, now: at(3) })).toEqual({ result: 'exists', transfer: (posted as { transfer: unknown }).transfer });
    });

    it('posts part of a hold and releases the rest; more than the hold only for a purchase', async () => {
      const cardholder = await fundedCardholder(10000);
      const pending = { ...hold(cardholder, 4000), kind: 'atm_withdrawal' as const };
      await createTransfer(db, pending);

      expect(await postPendingTransfer(db, { id: randomUUID(), pendingId: pending.id, amountCents: 4001, now: at(2) })).toEqual({
        result: 'exceeds_pending_transfer_amount',
      });
      expect(await postPendingTransfer(db, { id: randomUUID(), pendingId: pending.id, amountCents: 0, now: at(2) })).toEqual({ result: 'invalid_amount' });
      const posted = await postPendingTransfer(db, { id: randomUUID(), pendingId: pending.id, amountCents: 3150, now: at(2) });

      expect(posted).toMatchObject({ result: 'created', transfer: { amountCents: 3150 } });
      expect(await balances(db, cardholder, at(2))).toMatchObject({ postedCents: 6850, pendingDebitsCents: 0, availableCents: 6850 });
    });

    it('posts a purchase for more than its hold (a tip) when the available balance covers the extra, else refuses and keeps the hold', async () => {
      const cardholder = await fundedCardholder(10000);
      const tipped = hold(cardholder, 4000);
      const other = hold(cardholder, 5000);
      await createTransfer(db, tipped);
      await createTransfer(db, other);
      const before = await transferCount();

      // Available beside both holds: 1000. The hold itself is released by the post; only the extra counts.
      expect(await postPendingTransfer(db, { id: randomUUID(), pendingId: tipped.id, amountCents: 5001, now: at(2) })).toEqual({ result: 'exceeds_credits' });
      expect(await transferCount()).toBe(before);
      expect(await balances(db, cardholder, at(2))).toMatchObject({ postedCents: 10000, pendingDebitsCents: 9000, availableCents: 1000 });

      const posted = await postPendingTransfer(db, { id: randomUUID(), pendingId: tipped.id, amountCents: 5000, now: at(2) });
      expect(posted).toMatchObject({ result: 'created', transfer: { phase: 'post_pending', pendingId: tipped.id, amountCents: 5000 } });
      expect(await balances(db, cardholder, at(2))).toMatchObject({ postedCents: 5000, pendingDebitsCents: 5000, availableCents: 0 });
    });

    it("releases the cardholder's expired holds before checking a purchase's extra", async () => {
      const cardholder = await fundedCardholder(10000);
      const tipped = { ...hold(cardholder, 4000), now: at(0), occurredAt: at(0) };
      await createTransfer(db, tipped);
      await createTransfer(db, { ...hold(cardholder, 6000, 30), now: at(0), occurredAt: at(0) });

      expect(await postPendingTransfer(db, { id: randomUUID(), pendingId: tipped.id, amountCents: 4500, now: at(29) })).toEqual({ result: 'exceeds_credits' });
      expect(await postPendingTransfer(db, { id: randomUUID(), pendingId: tipped.id, amountCents: 4500, now: at(30) })).toMatchObject({ result: 'created' });
      expect(await balances(db, cardholder, at(30))).toMatchObject({ postedCents: 5500, pendingDebitsCents: 0, availableCents: 5500 });
    });

    it('voids a hold: all of it released, nothing posted', async () => {
      const cardholder = await fundedCardholder(10000);
      const pending = hold(cardholder, 4000);
      await createTransfer(db, pending);

      const voided = await voidPendingTransfer(db, { id: randomUUID(), pendingId: pending.id, now: at(2) });

      expect(voided).toMatchObject({ result: 'created', transfer: { phase: 'void_pending', amountCents: 4000, pendingId: pending.id } });
      expect(await balances(db, cardholder, at(2))).toMatchObject({ postedCents: 10000, pendingDebitsCents: 0, availableCents: 10000 });
    });

    it('resolves a hold once: a second post, a void after a post, a post after a void are refused', async () => {
      const cardholder = await fundedCardholder(10000);
      const posted = hold(cardholder, 1000);
      const voided = hold(cardholder, 2000);
      await createTransfer(db, posted);
      await createTransfer(db, voided);
      await postPendingTransfer(db, { id: randomUUID(), pendingId: posted.id, now: at(2) });
      await voidPendingTransfer(db, { id: randomUUID(), pendingId: voided.id, now: at(2) });

      const again = (pendingId: string) => ({ id: randomUUID(), pendingId, now: at(3) });
      expect(await postPendingTransfer(db, again(posted.id))).toEqual({ result: 'pending_transfer_already_posted' });
      expect(await voidPendingTransfer(db, again(posted.id))).toEqual({ result: 'pending_transfer_already_posted' });
      expect(await postPendingTransfer(db, again(voided.id))).toEqual({ result: 'pending_transfer_already_voided' });
      expect(await voidPendingTransfer(db, again(voided.id))).toEqual({ result: 'pending_transfer_already_voided' });
      expect(await available(cardholder, at(3))).toBe(9000);
    });

    it('refuses to resolve what is not a pending transfer', async () => {
      const cardholder = await fundedCardholder(1000);
      const single = purchase(cardholder, 100);
      await createTransfer(db, single);

      expect(await postPendingTransfer(db, { id: randomUUID(), pendingId: randomUUID(), now: at(2) })).toEqual({ result: 'pending_transfer_not_found' });
      expect(await voidPendingTransfer(db, { id: randomUUID(), pendingId: single.id, now: at(2) })).toEqual({ result: 'pending_transfer_not_pending' });
      // A retry's id used by another transfer.
      expect(await voidPendingTransfer(db, { id: single.id, pendingId: randomUUID(), now: at(2) })).toEqual({ result: 'exists_with_different_fields' });
    });

    it('lets a hold expire at its timeout: balances count it as gone, and a post is refused and records the expiry', async () => {
      const cardholder = await fundedCardholder(10000);
      const pending = { ...hold(cardholder, 4000, 60), now: at(0), occurredAt: at(0) };
      const placed = await createTransfer(db, pending);
      expect(placed).toMatchObject({ result: 'created', transfer: { timeoutAt: at(60) } });

      expect(await available(cardholder, at(59))).toBe(6000);
      expect(await available(cardholder, at(60))).toBe(10000);

      expect(await postPendingTransfer(db, { id: randomUUID(), pendingId: pending.id, now: at(61) })).toEqual({ result: 'pending_transfer_expired' });
      const [expiry] = await db.select().from(transfers).where(eq(transfers.pendingId, pending.id));
      expect(expiry).toMatchObject({ phase: 'void_pending', amountCents: 4000, occurredAt: at(60) });
      expect(await voidPendingTransfer(db, { id: randomUUID(), pendingId: pending.id, now: at(62) })).toEqual({ result: 'pending_transfer_expired' });
      expect(await balances(db, cardholder, at(62))).toMatchObject({ postedCents: 10000, pendingDebitsCents: 0, availableCents: 10000 });
    });

    it('releases a cardholder\'s expired holds before checking a purchase against the balance', async () => {
      const cardholder = await fundedCardholder(5000);
      await createTransfer(db, { ...hold(cardholder, 5000, 30), now: at(0), occurredAt: at(0) });
      expect(await createTransfer(db, purchase(cardholder, 5000, at(29)))).toEqual({ result: 'exceeds_credits' });

      expect((await createTransfer(db, purchase(cardholder, 5000, at(30)))).result).toBe('created');
      expect(await balances(db, cardholder, at(30))).toMatchObject({ postedCents: 0, pendingDebitsCents: 0, availableCents: 0 });
    });

    it('expires every hold past its timeout once, however often the sweep runs', async () => {
      const cardholders = [await fundedCardholder(1000), await fundedCardholder(1000)];
      const holds = [
        { ...hold(cardholders[0]!, 100, 10), now: at(0), occurredAt: at(0) },
        { ...hold(cardholders[1]!, 200, 20), now: at(0), occurredAt: at(0) },
        { ...hold(cardholders[1]!, 300, 90), now: at(0), occurredAt: at(0) },
      ];
      for (const each of holds) await createTransfer(db, each);

      const swept = await expirePendingTransfers(db, at(20));
      expect(swept).toBeGreaterThanOrEqual(2);
      expect(await expirePendingTransfers(db, at(20))).toBe(0);

      expect(await db.select({ pendingId: transfers.pendingId }).from(transfers).where(eq(transfers.phase, 'void_pending'))).toEqual(
        expect.arrayContaining([{ pendingId: holds[0]!.id }, { pendingId: holds[1]!.id }]),
      );
      expect((await balances(db, cardholders[1]!, at(20)))!.pendingDebitsCents).toBe(300);
      expect(await expirePendingTransfers(db, at(90))).toBeGreaterThanOrEqual(1);
      expect((await balances(db, cardholders[1]!, at(90)))!.pendingDebitsCents).toBe(0);
    });
  });

  describe('reverseTransfer', () => {
    it('reverses a posted transfer once', async () => {
      const cardholder = await fundedCardholder(1000);
      const spent = purchase(cardholder, 300);
      await createTransfer(db, spent);
      const reversal = { id: randomUUID(), reversesId: spent.id, now: at(5) };

      const answer = await reverseTransfer(db, reversal);

      expect(answer).toEqual({
        result: 'created',
        transfer: expect.objectContaining({ phase: 'posted', kind: 'reversal', reversesId: spent.id, debitLedgerAccountId: settlement, creditLedgerAccountId: cardholder, amountCents: 300, counterparty: 'Save Mart' }),
      });
      expect(await available(cardholder, at(5))).toBe(1000);
      expect(await reverseTransfer(db, { ...reversal, now: at(6) })).toEqual({ result: 'exists', transfer: (answer as { transfer: unknown }).transfer });
      expect(await reverseTransfer(db, { id: randomUUID(), reversesId: spent.id, now: at(6) })).toEqual({ result: 'transfer_already_reversed' });
      expect(await available(cardholder, at(6))).toBe(1000);
      // A correction is not corrected in turn: charging again is a new purchase or fee, counted as one.
      const reversalId = (answer as { transfer: { id: string } }).transfer.id;
      expect(await reverseTransfer(db, { id: randomUUID(), reversesId: reversalId, now: at(7) })).toEqual({ result: 'transfer_is_reversal' });
      expect(await available(cardholder, at(7))).toBe(1000);
    });

    it('reverses the posted part of a hold, not the hold', async () => {
      const cardholder = await fundedCardholder(1000);
      const pending = hold(cardholder, 400);
      await createTransfer(db, pending);
      expect(await reverseTransfer(db, { id: randomUUID(), reversesId: pending.id, now: at(2) })).toEqual({ result: 'transfer_not_posted' });
      const post = { id: randomUUID(), pendingId: pending.id, amountCents: 250, now: at(2) };
      await postPendingTransfer(db, post);

      expect((await reverseTransfer(db, { id: randomUUID(), reversesId: post.id, now: at(3) })).result).toBe('created');
      expect(await available(cardholder, at(3))).toBe(1000);
      expect(await reverseTransfer(db, { id: randomUUID(), reversesId: randomUUID(), now: at(3) })).toEqual({ result: 'transfer_not_found' });
    });

    it('refuses to reverse a deposit the cardholder has already spent (exceeds_credits)', async () => {
      const cardholder = await newCardholder(db);
      const deposit = deposited(cardholder, 1000);
      await createTransfer(db, { ...deposit, now: at(0) });
      await createTransfer(db, purchase(cardholder, 600));

      expect(await reverseTransfer(db, { id: randomUUID(), reversesId: deposit.id, now: at(2) })).toEqual({ result: 'exceeds_credits' });
      expect(await available(cardholder, at(2))).toBe(400);
    });
  });

  it('refuses in the database to change, delete or truncate a transfer', async () => {
    const cardholder = await fundedCardholder(1000);
    const [first] = await db.select({ id: transfers.id }).from(transfers).where(eq(transfers.creditLedgerAccountId, cardholder));

    const refused = (operation: string) => ({ cause: expect.objectContaining({ message: `transfers are immutable (${operation} refused); correct one with a reversal` }) });
    await expect(db.update(transfers).set({ amountCents: 1 }).where(eq(transfers.id, first!.id))).rejects.toMatchObject(refused('UPDATE'));
    await expect(db.delete(transfers).where(eq(transfers.id, first!.id))).rejects.toMatchObject(refused('DELETE'));
    // CASCADE: cards refer to their fee's transfer, and without it the foreign key would refuse first.
    await expect(db.execute(sql`truncate transfers cascade`)).rejects.toMatchObject(refused('TRUNCATE'));
    expect(await available(cardholder)).toBe(1000);
  });

  it("reports a balance column that is not what its account's transfers add up to", async () => {
    const cardholder = await fundedCardholder(1000);
    await db.update(ledgerAccounts).set({ creditsPosted: 1001 }).where(eq(ledgerAccounts.id, cardholder));

    const report = await invariantReport(db);

    await db.update(ledgerAccounts).set({ creditsPosted: 1000 }).where(eq(ledgerAccounts.id, cardholder));
    expect(report.ok).toBe(false);
    expect(report.problems).toEqual([
      expect.stringMatching(/posted debits \(\d+\) and credits \(\d+\) differ over all accounts/),
      expect.stringContaining(`ledger account ${cardholder} (cardholder): its balances (debits pending 0, posted 0; credits pending 0, posted 1001) are not what its transfers add up to (0, 0; 0, 1000)`),
    ]);
    expect((await invariantReport(db)).ok).toBe(true);
  });
});

describe('balances past 2^53 − 1 cents', () => {
  // A database of its own: the settlement account's sums stay past 2^53 afterwards, which would make
  // the other tests' readings of it inexact.
  it('refuses, whole, a transfer that would take a balance past what a number holds exactly', async () => {
    const database = await pgliteLedgerDatabase();
    try {
      const db = database.db;
      const cardholder = await newCardholder(db);
      const deposit = (amountCents: number) =>
        createTransfer(db, { id: randomUUID(), debit: settlement, credit: cardholder, amountCents, kind: 'deposit', phase: 'posted', now: at(0) });
      expect((await deposit(Number.MAX_SAFE_INTEGER - 1)).result).toBe('created');
      const before = await db.select().from(transfers);

      await expect(deposit(2)).rejects.toThrow(RangeError);

      expect(await db.select().from(transfers)).toEqual(before);
      expect(await balances(db, cardholder, at(0))).toMatchObject({ postedCents: Number.MAX_SAFE_INTEGER - 1 });
      // Up to 2^53 − 1 itself every cent is exact.
      expect((await deposit(1)).result).toBe('created');
      expect(await balances(db, cardholder, at(0))).toMatchObject({ postedCents: Number.MAX_SAFE_INTEGER });
    } finally {
      await database.close();
    }
  });
});

describe('transferIdFor', () => {
  const scope = { caller: 'b7d3c7a0-3c1e-4a55-9a51-6d1f0c9d2e11', operation: 'POST /load-card' };

  it('maps the same key of the same caller and operation to the same UUID, and any difference to another', () => {
    const id = transferIdFor(scope, 'key-1');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(transferIdFor({ ...scope }, 'key-1')).toBe(id);
    const others = [
      transferIdFor(scope, 'key-2'),
      transferIdFor({ ...scope, caller: 'another caller' }, 'key-1'),
      transferIdFor({ ...scope, operation: 'POST /load-card fee' }, 'key-1'),
      // The parts are kept apart: moving text from one to the next is another id.
      transferIdFor({ caller: scope.caller, operation: 'POST /load-card key' }, '-1'),
    ];
    expect(new Set([id, ...others]).size).toBe(5);
  });

  it('refuses an empty key', () => {
    expect(() => transferIdFor(scope, '')).toThrow(RangeError);
  });
});
