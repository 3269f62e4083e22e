/**
 * The ledger's writes: transfers (single-phase or pending), posting and voiding pending ones, their
 * expiry, and reversals. Each is one ledgerWrite (writes.ts); each answers a result, as TigerBeetle
 * does, instead of throwing for a refusal. Money is integer cents.
 */
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import { type TransactionKind, transfers } from '../../db/schema/index.ts';
import { expiryTransferId } from './ids.ts';
import { type Existing, existingAnswer, expiredHolds, expiryOf, findTransfer, type Ledger, ledgerWrite, type Transfer } from './writes.ts';

/** A new transfer from one ledger account (`debit`) to another (`credit`). */
export type NewTransfer = {
  /** Chosen by the caller (transferIdFor an Idempotency-Key, or crypto.randomUUID()); a retry sends it again. */
  id: string;
  debit: string;
  credit: string;
  amountCents: number;
  kind: TransactionKind;
  counterparty?: string | null;
  location?: string | null;
  /** When it happened (for the activity list); `now` when left out. */
  occurredAt?: Date;
  /** The ledger's clock (timeouts, default occurredAt); when left out, the time the write got its locks (Ledger.now). Tests pass it. */
  now?: Date;
} & (
  | { phase: 'posted' }
  /** A hold: the amount is reserved until posted or voided, or until `timeoutSeconds` after occurredAt (none: no timeout). */
  | { phase: 'pending'; timeoutSeconds?: number }
);

export type CreateTransferFailure =
  | 'invalid_amount'
  | 'invalid_timeout'
  | 'accounts_must_be_different'
  | 'debit_account_not_found'
  | 'credit_account_not_found'
  | 'exceeds_credits';

export type PendingTransferFailure =
  | 'invalid_amount'
  | 'pending_transfer_not_found'
  | 'pending_transfer_not_pending'
  | 'pending_transfer_already_posted'
  | 'pending_transfer_already_voided'
  | 'pending_transfer_expired'
  | 'exceeds_pending_transfer_amount'
  | 'exceeds_credits';

export type ReversalFailure = 'transfer_not_found' | 'transfer_not_posted' | 'transfer_is_reversal' | 'transfer_already_reversed' | 'exceeds_credits';

/**
 * What a write answers: its new transfer; the transfer a retry of the same id and fields made first
 * (nothing happened again); or why nothing happened.
 */
export type TransferResult<Failure extends string> =
  | { result: 'created'; transfer: Transfer }
  | Existing
  | { result: Failure };

const isCents = (amount: number) => Number.isSafeInteger(amount) && amount > 0;
const sameTime = (a: Date | null, b: Date | null) => (a?.getTime() ?? null) === (b?.getTime() ?? null);

/**
 * A single-phase ('posted') transfer, or a pending one (a hold). Refused with 'exceeds_credits' when
 * the debit account has a floor (a cardholder's) and its available balance is less than the amount.
 */
export async function createTransfer(db: Database, transfer: NewTransfer): Promise<TransferResult<CreateTransferFailure>> {
  const timeoutSeconds = transfer.phase === 'pending' ? transfer.timeoutSeconds : undefined;
  /** A hold's timeout, `timeoutSeconds` after it occurred. */
  const timeoutFrom = (occurredAt: Date) => (timeoutSeconds === undefined ? null : new Date(occurredAt.getTime() + timeoutSeconds * 1000));
  if (!isCents(transfer.amountCents)) return { result: 'invalid_amount' };
  if (transfer.debit === transfer.credit) return { result: 'accounts_must_be_different' };
  // A timeout past what a Date holds (about 275,760 AD) is no time at all: refused, not thrown later.
  // (Judged before the locks, at the clock then: a timeout is whole seconds, the write takes less.)
  const clockBefore = transfer.now ?? new Date();
  if (timeoutSeconds !== undefined && (!Number.isSafeInteger(timeoutSeconds) || timeoutSeconds <= 0 || !(timeoutFrom(transfer.occurredAt ?? clockBefore)! > clockBefore))) {
    return { result: 'invalid_timeout' };
  }
  const counterparty = transfer.counterparty ?? null;
  const location = transfer.location ?? null;

  // Times are compared when the retry states them; the timeout as a duration from occurredAt.
  const matches = (existing: Transfer) =>
    existing.debitLedgerAccountId === transfer.debit &&
    existing.creditLedgerAccountId === transfer.credit &&
    existing.amountCents === transfer.amountCents &&
    existing.phase === transfer.phase &&
    existing.kind === transfer.kind &&
    existing.counterparty === counterparty &&
    existing.location === location &&
    existing.pendingId === null &&
    existing.reversesId === null &&
    (transfer.occurredAt === undefined || sameTime(existing.occurredAt, transfer.occurredAt)) &&
    (existing.timeoutAt === null
      ? timeoutSeconds === undefined
      : existing.timeoutAt.getTime() - existing.occurredAt.getTime() === (timeoutSeconds ?? 0) * 1000);

  return ledgerWrite(
    db,
    { id: transfer.id, accountIds: [transfer.debit, transfer.credit], releaseHoldsOf: transfer.debit, now: transfer.now, matches },
    async (ledger) => {
      const occurredAt = transfer.occurredAt ?? ledger.now;
      const timeoutAt = timeoutFrom(occurredAt);
      if (!ledger.has(transfer.debit)) return { result: 'debit_account_not_found' } as const;
      if (!ledger.has(transfer.credit)) return { result: 'credit_account_not_found' } as const;
      if (!ledger.canDebit(transfer.debit, transfer.amountCents)) return { result: 'exceeds_credits' } as const;
      const created = await ledger.record({
        id: transfer.id,
        debitLedgerAccountId: transfer.debit,
        creditLedgerAccountId: transfer.credit,
        amountCents: transfer.amountCents,
        phase: transfer.phase,
        timeoutAt,
        kind: transfer.kind,
        counterparty,
        location,
        occurredAt,
      });
      return { result: 'created', transfer: created } as const;
    },
  );
}

/**
 * Posts a pending transfer: `amountCents` of it (all of it when left out), the rest released. At most
 * all of it, but for a purchase (mayExceedHold). A pending transfer is posted or voided once: the
 * second answers why not.
 */
export async function postPendingTransfer(
  db: Database,
  post: { id: string; pendingId: string; amountCents?: number; occurredAt?: Date; now?: Date },
): Promise<TransferResult<PendingTransferFailure>> {
  if (post.amountCents !== undefined && !isCents(post.amountCents)) return { result: 'invalid_amount' };
  return resolvePending(db, 'post_pending', post);
}

/** Voids a pending transfer: its whole amount released, nothing posted. */
export function voidPendingTransfer(
  db: Database,
  voiding: { id: string; pendingId: string; occurredAt?: Date; now?: Date },
): Promise<TransferResult<PendingTransferFailure>> {
  return resolvePending(db, 'void_pending', voiding);
}

/** A post (of `amountCents`, or all) or a void of a pending transfer, which each resolve it once. */
async function resolvePending(
  db: Database,
  phase: 'post_pending' | 'void_pending',
  request: { id: string; pendingId: string; amountCents?: number; occurredAt?: Date; now?: Date },
): Promise<TransferResult<PendingTransferFailure>> {
  // Transfers never change, so the pending one read before the locks is the one under them.
  const pending = await findTransfer(db, request.pendingId);
  const matches = (existing: Transfer) =>
    existing.phase === phase &&
    existing.pendingId === request.pendingId &&
    existing.amountCents === (request.amountCents ?? pending?.amountCents) &&
    (request.occurredAt === undefined || sameTime(existing.occurredAt, request.occurredAt));
  if (!pending) return (await existingAnswer(db, request.id, matches)) ?? { result: 'pending_transfer_not_found' };
  const amountCents = request.amountCents ?? pending.amountCents;
  // What a post takes beyond its hold is a debit like any other: checked against the live holds only.
  const extraCents = amountCents - pending.amountCents;
  const releaseHoldsOf = extraCents > 0 && mayExceedHold(pending) ? pending.debitLedgerAccountId : undefined;

  return ledgerWrite(
    db,
    { id: request.id, accountIds: [pending.debitLedgerAccountId, pending.creditLedgerAccountId], releaseHoldsOf, now: request.now, matches },
    async (ledger): Promise<TransferResult<PendingTransferFailure>> => {
      const { now } = ledger;
      if (pending.phase !== 'pending') return { result: 'pending_transfer_not_pending' };
      const [resolution] = await ledger.tx.select().from(transfers).where(eq(transfers.pendingId, pending.id));
      if (resolution) return { result: resolutionFailure(resolution) };
      if (pending.timeoutAt && pending.timeoutAt <= now) {
        await ledger.record(expiryOf(pending), pending.amountCents);
        return { result: 'pending_transfer_expired' };
      }
      if (extraCents > 0 && !mayExceedHold(pending)) return { result: 'exceeds_pending_transfer_amount' };
      // The hold itself is released by the post, so only the extra must be available.
      if (extraCents > 0 && !ledger.canDebit(pending.debitLedgerAccountId, extraCents)) return { result: 'exceeds_credits' };
      const transfer = await ledger.record(
        {
          id: request.id,
          debitLedgerAccountId: pending.debitLedgerAccountId,
          creditLedgerAccountId: pending.creditLedgerAccountId,
          amountCents,
          phase,
          pendingId: pending.id,
          kind: pending.kind,
          counterparty: pending.counterparty,
          location: pending.location,
          occurredAt: request.occurredAt ?? now,
        },
        pending.amountCents,
      );
      return { result: 'created', transfer };
    },
  );
}

/**
 * A card network settles a purchase for more than it authorized (a tip, a fuel pump's final amount):
 * the extra is taken with the hold when the debit account's available balance covers it, else the post
 * is refused ('exceeds_credits') and the hold stays. Any other hold is posted for at most its amount
 * (invariantReport checks both).
 */
export const holdSettledForMore: TransactionKind = 'purchase';
const mayExceedHold = (pending: Pick<Transfer, 'kind'>) => pending.kind === holdSettledForMore;

function resolutionFailure(resolution: Transfer): PendingTransferFailure {
  if (resolution.phase === 'post_pending') return 'pending_transfer_already_posted';
  return resolution.id === expiryTransferId(resolution.pendingId!) ? 'pending_transfer_expired' : 'pending_transfer_already_voided';
}

/**
 * Voids every pending transfer whose timeout is at or before `now` (one ledger write each; the void's
 * id comes from the pending's, so an expiry racing this one, or a write that expired it first, leaves
 * nothing to do). Answers how many this call voided. Writes and balances() already treat expired
 * holds as gone; this records them for everyone (run it periodically). A hold whose expiry cannot be
 * written (its account's row broken) does not hold up the others: they are recorded, then the call
 * throws, saying how many could not be, with the first error as its cause.
 */
export async function expirePendingTransfers(db: Database, now: Date): Promise<number> {
  let voided = 0;
  const failed = new Map<string, unknown>();
  for (;;) {
    // The failed ones are still expired and come first again: read past them.
    const limit = expiryBatch + failed.size;
    const read = await expiredHolds(db, now, { limit });
    for (const hold of read.filter((hold) => !failed.has(hold.id))) {
      try {
        if (await expireHold(db, hold, now)) voided += 1;
      } catch (error) {
        failed.set(hold.id, error);
      }
    }
    // Every other hold read is resolved now (by this call or another), so the next read moves on.
    if (read.length < limit) break;
  }
  if (failed.size === 0) return voided;
  const holds = (count: number) => `${count} expired hold${count === 1 ? '' : 's'}`;
  throw new Error(`${holds(failed.size)} could not be recorded (${voided} ${voided === 1 ? 'was' : 'were'})`, { cause: failed.values().next().value });
}

const expiryBatch = 500;

/** Records one hold's expiry; false when it was posted, voided or expired meanwhile. */
async function expireHold(db: Database, hold: Transfer, now: Date): Promise<boolean> {
  const expiry = expiryOf(hold);
  const answer = await ledgerWrite(
    db,
    { id: expiry.id, accountIds: [hold.debitLedgerAccountId, hold.creditLedgerAccountId], now, matches: () => true },
    async (ledger: Ledger) => {
      // Posted or voided since it was read.
      const [resolution] = await ledger.tx.select({ id: transfers.id }).from(transfers).where(eq(transfers.pendingId, hold.id));
      if (resolution) return { result: 'resolved' } as const;
      await ledger.record(expiry, hold.amountCents);
      return { result: 'created' } as const;
    },
  );
  return answer.result === 'created';
}

/**
 * Undoes a posted transfer with a new posted one between the same accounts, the other way round, of
 * the same amount; at most once per transfer. Refused with 'exceeds_credits' when the account it takes
 * the money back from (a cardholder who spent a deposit) cannot cover it. A reversal is not undone in
 * turn ('transfer_is_reversal'): charging again is a new transfer of its own kind (a fee, a purchase),
 * which statements count as such; a reversal of a reversal would be a charge named a correction.
 */
export async function reverseTransfer(
  db: Database,
  reversal: { id: string; reversesId: string; occurredAt?: Date; now?: Date },
): Promise<TransferResult<ReversalFailure>> {
  const original = await findTransfer(db, reversal.reversesId);
  const matches = (existing: Transfer) =>
    existing.phase === 'posted' &&
    existing.kind === 'reversal' &&
    existing.reversesId === reversal.reversesId &&
    (reversal.occurredAt === undefined || sameTime(existing.occurredAt, reversal.occurredAt));
  if (!original) return (await existingAnswer(db, reversal.id, matches)) ?? { result: 'transfer_not_found' };

  const debit = original.creditLedgerAccountId;
  const credit = original.debitLedgerAccountId;
  return ledgerWrite(
    db,
    { id: reversal.id, accountIds: [debit, credit], releaseHoldsOf: debit, now: reversal.now, matches },
    async (ledger): Promise<TransferResult<ReversalFailure>> => {
      // A hold is voided, not reversed; its post is the posted part.
      if (original.phase !== 'posted' && original.phase !== 'post_pending') return { result: 'transfer_not_posted' };
      if (original.reversesId !== null) return { result: 'transfer_is_reversal' };
      const [earlier] = await ledger.tx.select({ id: transfers.id }).from(transfers).where(eq(transfers.reversesId, original.id));
      if (earlier) return { result: 'transfer_already_reversed' };
      if (!ledger.canDebit(debit, original.amountCents)) return { result: 'exceeds_credits' };
      const transfer = await ledger.record({
        id: reversal.id,
        debitLedgerAccountId: debit,
        creditLedgerAccountId: credit,
        amountCents: original.amountCents,
        phase: 'posted',
        kind: 'reversal',
        counterparty: original.counterparty,
        location: original.location,
        reversesId: original.id,
        occurredAt: reversal.occurredAt ?? ledger.now,
      });
      return { result: 'created', transfer };
    },
  );
}
