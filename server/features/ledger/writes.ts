/**
 * How every ledger write runs, so each keeps the same guarantees: one database transaction (a
 * savepoint inside the caller's), its ledger accounts locked with SELECT … FOR UPDATE in id order (two
 * writes never wait on each other in a circle), the transfer id looked up only once the locks are held
 * (identical requests arriving together find the first one's transfer), the debit account's expired
 * holds released before its balance is checked, and the balance columns written in the same
 * transaction as the transfers that move them.
 */
import { and, eq, inArray, lte, notExists, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/database.ts';
import { ledgerAccounts, transfers } from '../../db/schema/index.ts';
import { sqlStateOf } from '../../shared/errorLog.ts';
import { expiryTransferId } from './ids.ts';

export type LedgerAccount = typeof ledgerAccounts.$inferSelect;
export type Transfer = typeof transfers.$inferSelect;
type TransferRow = typeof transfers.$inferInsert & { amountCents: number };

/** A retry of a transfer id already used: the same request (its first transfer) or another one. */
export type Existing = { result: 'exists'; transfer: Transfer } | { result: 'exists_with_different_fields' };

/** The locked accounts of one write, as the write changes them. */
export type Ledger = {
  tx: Database;
  now: Date;
  account: (id: string) => LedgerAccount | undefined;
  /** Whether debiting `amountCents` keeps the account within its floor (always, for an account without one). */
  canDebit: (id: string, amountCents: number) => boolean;
  /** Inserts a transfer and moves the balances it moves (`pendingCents`: the whole amount of the pending a post or void resolves). */
  record: (row: TransferRow, pendingCents?: number) => Promise<Transfer>;
  /** Changes the account's cushion, written with its balances at the end. */
  setCushion: (id: string, cushionCents: number) => void;
};

/** Credits posted − debits posted − debits pending + cushion: what the account may still spend. */
export function availableCents(account: LedgerAccount): number {
  return account.creditsPosted - account.debitsPosted - account.debitsPending + account.cushionCents;
}

const resolutions = alias(transfers, 'resolution');

/** Pending transfers not yet posted or voided whose timeout has passed: of one debit account, or the first `limit` of all. */
export function expiredHolds(db: Database, now: Date, which: { debitId: string } | { limit: number }) {
  const debitId = 'debitId' in which ? which.debitId : undefined;
  const holds = db
    .select()
    .from(transfers)
    .where(
      and(
        eq(transfers.phase, 'pending'),
        debitId === undefined ? undefined : eq(transfers.debitLedgerAccountId, debitId),
        lte(transfers.timeoutAt, now),
        notExists(db.select({ one: sql`1` }).from(resolutions).where(eq(resolutions.pendingId, transfers.id))),
      ),
    )
    .orderBy(transfers.timeoutAt, transfers.id);
  return 'limit' in which ? holds.limit(which.limit) : holds;
}

/** The void that records a hold's expiry: deterministic in every field, so it reads the same whoever writes it. */
export function expiryOf(pending: Transfer): TransferRow {
  return {
    id: expiryTransferId(pending.id),
    debitLedgerAccountId: pending.debitLedgerAccountId,
    creditLedgerAccountId: pending.creditLedgerAccountId,
    amountCents: pending.amountCents,
    phase: 'void_pending',
    pendingId: pending.id,
    kind: pending.kind,
    counterparty: pending.counterparty,
    location: pending.location,
    occurredAt: pending.timeoutAt!,
  };
}

export async function findTransfer(db: Database, id: string): Promise<Transfer | undefined> {
  const [transfer] = await db.select().from(transfers).where(eq(transfers.id, id));
  return transfer;
}

/** The answer to a transfer id already used, or null when it is new. */
export async function existingAnswer(db: Database, id: string, matches: (transfer: Transfer) => boolean): Promise<Existing | null> {
  const transfer = await findTransfer(db, id);
  if (!transfer) return null;
  return matches(transfer) ? { result: 'exists', transfer } : { result: 'exists_with_different_fields' };
}

/** What a transfer does to its two accounts' balance columns. */
function applyTransfer(accounts: Map<string, LedgerAccount>, transfer: TransferRow, pendingCents: number): void {
  const debit = accounts.get(transfer.debitLedgerAccountId)!;
  const credit = accounts.get(transfer.creditLedgerAccountId)!;
  const amount = transfer.amountCents;
  if (transfer.phase === 'pending') {
    debit.debitsPending += amount;
    credit.creditsPending += amount;
    return;
  }
  if (transfer.phase === 'post_pending' || transfer.phase === 'void_pending') {
    // The whole hold is released; a post then moves what it posts (a partial post gives the rest back).
    debit.debitsPending -= pendingCents;
    credit.creditsPending -= pendingCents;
    if (transfer.phase === 'void_pending') return;
  }
  debit.debitsPosted += amount;
  credit.creditsPosted += amount;
}

/**
 * Runs `write` in one transaction (a savepoint inside the caller's) over the given accounts, locked in
 * id order. `releaseHoldsOf`, an account the write may debit, has its expired holds voided first when
 * it has a floor (their counterparts are locked too, in the same ordered statement). The balance
 * columns `write` changed are written at the end, also when it refused: released holds stay released.
 */
export async function lockedWrite<R>(
  db: Database,
  request: { accountIds: string[]; releaseHoldsOf?: string; now: Date },
  write: (ledger: Ledger) => Promise<R>,
): Promise<R> {
  const { now, releaseHoldsOf } = request;
  return db.transaction(async (tx) => {
    const counterparts = releaseHoldsOf ? await expiredHoldCounterparts(tx, releaseHoldsOf, now) : [];
    const locked = await lockAccounts(tx, [...request.accountIds, ...counterparts]);
    const changed = new Set<string>();
    const ledger: Ledger = {
      tx,
      now,
      account: (accountId) => locked.get(accountId),
      canDebit: (accountId, amountCents) => {
        const account = locked.get(accountId)!;
        return !account.debitsMustNotExceedCredits || availableCents(account) >= amountCents;
      },
      record: async (row, pendingCents = 0) => {
        const [transfer] = await tx.insert(transfers).values(row).returning();
        applyTransfer(locked, row, pendingCents);
        changed.add(row.debitLedgerAccountId).add(row.creditLedgerAccountId);
        return transfer!;
      },
      setCushion: (accountId, cushionCents) => {
        locked.get(accountId)!.cushionCents = cushionCents;
        changed.add(accountId);
      },
    };
    if (releaseHoldsOf) await releaseExpiredHolds(ledger, releaseHoldsOf);
    const result = await write(ledger);
    // One UPDATE per account, all its columns at once: the floor CHECK sees only its final state.
    for (const accountId of changed) {
      const { debitsPending, debitsPosted, creditsPending, creditsPosted, cushionCents } = locked.get(accountId)!;
      await tx
        .update(ledgerAccounts)
        .set({ debitsPending, debitsPosted, creditsPending, creditsPosted, cushionCents })
        .where(eq(ledgerAccounts.id, accountId));
    }
    return result;
  });
}

/**
 * A lockedWrite that creates transfer `id`: when that id exists already, the answer is its Existing
 * and `write` does not run. The id is looked up only once the locks are held, so of identical requests
 * arriving together the first creates it and the others find it.
 */
export async function ledgerWrite<R>(
  db: Database,
  request: { id: string; accountIds: string[]; releaseHoldsOf?: string; now: Date; matches: (transfer: Transfer) => boolean },
  write: (ledger: Ledger) => Promise<R>,
): Promise<R | Existing> {
  const { id, matches } = request;
  try {
    return await lockedWrite(db, request, async (ledger) => (await existingAnswer(ledger.tx, id, matches)) ?? write(ledger));
  } catch (error) {
    // The same id sent with other accounts (so other locks) at the same moment: the insert that came
    // second waited for the first to commit, then broke the primary key. Answer as for a retry.
    if (sqlStateOf(error) !== '23505') throw error;
    const existing = await existingAnswer(db, id, matches);
    if (!existing) throw error;
    return existing;
  }
}

/**
 * The credit accounts of the expired holds on a debit account that has a floor, read before any lock
 * is taken so that they can be locked with the rest, in order. A hold that expires between this read
 * and the locks is left for the next write or the sweep: until then it still counts against the
 * balance, which errs on the safe side.
 */
async function expiredHoldCounterparts(tx: Database, debitId: string, now: Date): Promise<string[]> {
  const [account] = await tx
    .select({ limited: ledgerAccounts.debitsMustNotExceedCredits })
    .from(ledgerAccounts)
    .where(eq(ledgerAccounts.id, debitId));
  if (!account?.limited) return [];
  return (await expiredHolds(tx, now, { debitId })).map((hold) => hold.creditLedgerAccountId);
}

/** SELECT … FOR UPDATE of the accounts, in id order: the order every ledger write takes its locks in. */
async function lockAccounts(tx: Database, ids: string[]): Promise<Map<string, LedgerAccount>> {
  const rows = await tx
    .select()
    .from(ledgerAccounts)
    .where(inArray(ledgerAccounts.id, [...new Set(ids)]))
    .orderBy(ledgerAccounts.id)
    .for('update');
  return new Map(rows.map((row) => [row.id, row]));
}

/** Voids the debit account's expired holds (under the locks), so its balance check counts only live ones. */
async function releaseExpiredHolds(ledger: Ledger, debitId: string): Promise<void> {
  if (!ledger.account(debitId)?.debitsMustNotExceedCredits) return;
  for (const hold of await expiredHolds(ledger.tx, ledger.now, { debitId })) {
    if (ledger.account(hold.creditLedgerAccountId)) await ledger.record(expiryOf(hold), hold.amountCents);
  }
}
