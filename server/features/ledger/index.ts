/**
 * The double-entry money ledger, modelled on TigerBeetle's guarantees (docs/decisions.md "The
 * ledger"); every money feature posts through it and nothing writes a balance directly. Other server
 * features use only what this file exports.
 *
 * - Accounts: one per card account (openCardholderLedgerAccount; its available balance never below
 *   zero, or −cushion), and the system accounts (systemLedgerAccounts: settlement, fee revenue,
 *   rewards payable, cushion funding).
 * - Transfers: createTransfer moves integer cents from a debit account to a credit account, at once
 *   ('posted') or as a hold ('pending', optionally with a timeout) that postPendingTransfer (all or
 *   part; a purchase's also for more, a tip, when the balance covers it) or voidPendingTransfer
 *   resolves once; an expired hold is voided by the next write on its
 *   account or by expirePendingTransfers, which the server runs periodically (startExpirySweep).
 *   Transfers never change: reverseTransfer corrects one.
 * - Idempotency: the caller chooses each transfer id (transferIdFor an Idempotency-Key); a retry with
 *   the same id answers 'exists' with the first transfer, or 'exists_with_different_fields'.
 * - Every write takes a Database or a transaction (it then runs in a savepoint of it), answers a
 *   result instead of throwing for a refusal, and takes `now` (the ledger's clock; tests pass it).
 * - balances() reads an account's balances; invariantReport() checks the whole ledger; feesChargedSql
 *   totals an account's fees (Regulation E's fee totals).
 *
 * A deposit: `createTransfer(db, { id: transferIdFor({ caller: userId, operation: 'POST /load-card' },
 * key), debit: systemLedgerAccounts.settlement, credit: await openCardholderLedgerAccount(db, accountId),
 * amountCents: 2500, kind: 'card_load', phase: 'posted' })`.
 */
export { type Balances, balances, openCardholderLedgerAccount, setCushion, systemLedgerAccounts } from './accounts.ts';
export { feesChargedSql } from './fees.ts';
export { type IdempotencyScope, transferIdFor } from './ids.ts';
export { type InvariantReport, invariantReport } from './invariants.ts';
export {
  type CreateTransferFailure,
  createTransfer,
  expirePendingTransfers,
  type NewTransfer,
  type PendingTransferFailure,
  postPendingTransfer,
  type ReversalFailure,
  reverseTransfer,
  type TransferResult,
  voidPendingTransfer,
} from './transfers.ts';
export { type ExpirySweep, startExpirySweep, type SweepClock } from './sweep.ts';
export { findTransfer, type LedgerAccount, type Transfer } from './writes.ts';
export type { TransactionKind } from '../../db/schema/index.ts';
