/**
 * The double-entry money ledger (server/features/ledger, docs/decisions.md "The ledger"): ledger
 * accounts, a cardholder's with its running balance columns, and transfers, each debiting one account
 * and crediting another. Transfers are immutable (migration 0007 adds a trigger that refuses UPDATE,
 * DELETE and TRUNCATE); a balance column only ever changes in the same transaction as the transfer that
 * moves it. System accounts keep no balance columns (all zero, migration 0009): their balances are the
 * sums of their transfers, so no write has to wait for their rows.
 */
import { type AnyPgColumn, bigint, boolean, check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { transactionKinds } from '../../../contract/activity/types.ts';
import { accounts } from './home.ts';

/** A cardholder's own account, and one system account for each other kind. */
export const ledgerAccountKinds = ['cardholder', 'settlement', 'fee_revenue', 'rewards_payable', 'cushion_funding'] as const;
export type SystemLedgerAccountKind = Exclude<(typeof ledgerAccountKinds)[number], 'cardholder'>;

/** 'posted' is a single-phase transfer; a 'pending' one holds its amount until a post or a void resolves it. */
export const transferPhases = ['posted', 'pending', 'post_pending', 'void_pending'] as const;

/**
 * What a transfer is in the product's words (activity lists, statements): the contract's transaction
 * kinds, one list for the wire and the database. Text in the database, so a new kind needs no migration.
 */
export { transactionKinds, type TransactionKind } from '../../../contract/activity/types.ts';

export const ledgerAccounts = pgTable('ledger_accounts', {
  id: uuid('id').primaryKey().defaultRandom(),
  kind: text('kind', { enum: ledgerAccountKinds }).notNull(),
  /** The card account, for kind 'cardholder'; null for the system accounts. */
  accountId: uuid('account_id').unique('ledger_accounts_account_id_unique').references(() => accounts.id),
  // TigerBeetle's four balances, in cents: pending amounts are held by unresolved pending transfers.
  // A cardholder's only; a system account's stay zero (its transfers are its balances).
  debitsPending: bigint('debits_pending', { mode: 'number' }).notNull().default(0),
  debitsPosted: bigint('debits_posted', { mode: 'number' }).notNull().default(0),
  creditsPending: bigint('credits_pending', { mode: 'number' }).notNull().default(0),
  creditsPosted: bigint('credits_posted', { mode: 'number' }).notNull().default(0),
  /** How far below zero the available balance may go (SNAPback sets it; 0 for everyone until then). */
  cushionCents: bigint('cushion_cents', { mode: 'number' }).notNull().default(0),
  /** The available balance (credits posted − debits posted − debits pending + cushion) never below zero. */
  debitsMustNotExceedCredits: boolean('debits_must_not_exceed_credits').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  uniqueIndex('ledger_accounts_system_kind_unique').on(t.kind).where(sql`${t.accountId} is null`),
  check('ledger_accounts_cardholder_has_account', sql`(${t.kind} = 'cardholder') = (${t.accountId} is not null)`),
  check(
    'ledger_accounts_balances_not_negative',
    sql`${t.debitsPending} >= 0 and ${t.debitsPosted} >= 0 and ${t.creditsPending} >= 0 and ${t.creditsPosted} >= 0 and ${t.cushionCents} >= 0`,
  ),
  // The service checks this under the account's lock; the database refuses a bug that would not.
  check(
    'ledger_accounts_debits_within_credits',
    sql`not ${t.debitsMustNotExceedCredits} or ${t.debitsPosted} + ${t.debitsPending} <= ${t.creditsPosted} + ${t.cushionCents}`,
  ),
  // A cardholder's account always has its floor (the cushion is how it may go below zero)…
  check('ledger_accounts_cardholder_has_floor', sql`${t.accountId} is null or ${t.debitsMustNotExceedCredits}`),
  // …and a system account has none and keeps no running balances: no write locks or updates its row.
  check(
    'ledger_accounts_system_keeps_no_balances',
    sql`${t.accountId} is not null or (${t.debitsPending} = 0 and ${t.debitsPosted} = 0 and ${t.creditsPending} = 0 and ${t.creditsPosted} = 0 and ${t.cushionCents} = 0 and not ${t.debitsMustNotExceedCredits})`,
  ),
]);

export const transfers = pgTable('transfers', {
  /** Chosen by the caller (transferIdFor an Idempotency-Key): a retry with the same id has no second effect. */
  id: uuid('id').primaryKey(),
  debitLedgerAccountId: uuid('debit_ledger_account_id').notNull().references(() => ledgerAccounts.id),
  creditLedgerAccountId: uuid('credit_ledger_account_id').notNull().references(() => ledgerAccounts.id),
  /**
   * Cents. A post_pending carries the amount posted (at most the pending's), a void_pending the
   * pending's whole amount; both carry the pending's accounts.
   */
  amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
  phase: text('phase', { enum: transferPhases }).notNull(),
  /** The pending transfer a post_pending or void_pending resolves; unique, so it is resolved at most once. */
  pendingId: uuid('pending_id').references((): AnyPgColumn => transfers.id),
  /** When a pending transfer expires (voided by the next write that looks, or by the expiry sweep). */
  timeoutAt: timestamp('timeout_at', { withTimezone: true }),
  kind: text('kind', { enum: transactionKinds }).notNull(),
  /** The payer or merchant, as the activity list names it. */
  counterparty: text('counterparty'),
  location: text('location'),
  /** The transfer a reversal undoes; unique, so a transfer is reversed at most once. */
  reversesId: uuid('reverses_id').references((): AnyPgColumn => transfers.id),
  occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  uniqueIndex('transfers_pending_id_unique').on(t.pendingId),
  uniqueIndex('transfers_reverses_id_unique').on(t.reversesId),
  // Keyset pages of one account's activity, newest first, from either side.
  index('transfers_debit_activity_idx').on(t.debitLedgerAccountId, t.occurredAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
  index('transfers_credit_activity_idx').on(t.creditLedgerAccountId, t.occurredAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
  // The voids of holds, which the activity list leaves out (a voided hold moved no money): partial, so
  // small; without it the planner read every transfer to find none (twice, about 18 ms a page, with
  // 100,000 transfers on the bench machine).
  index('transfers_voids_idx').on(t.pendingId).where(sql`${t.phase} = 'void_pending'`),
  // Expired holds: those of one debit account (looked at by every write it makes), and all (the sweep).
  index('transfers_pending_debit_timeout_idx').on(t.debitLedgerAccountId, t.timeoutAt).where(sql`${t.phase} = 'pending'`),
  index('transfers_pending_timeout_idx').on(t.timeoutAt).where(sql`${t.phase} = 'pending'`),
  // One account's fees (server/features/ledger/fees.ts): the fee totals of activity and statements.
  index('transfers_fees_idx').on(t.debitLedgerAccountId, t.occurredAt).where(sql`${t.kind} = 'fee'`),
  check('transfers_amount_positive', sql`${t.amountCents} > 0`),
  check('transfers_accounts_differ', sql`${t.debitLedgerAccountId} <> ${t.creditLedgerAccountId}`),
  check('transfers_resolution_has_pending', sql`(${t.phase} in ('post_pending', 'void_pending')) = (${t.pendingId} is not null)`),
  check('transfers_timeout_only_pending', sql`${t.timeoutAt} is null or ${t.phase} = 'pending'`),
  check('transfers_reversal_is_posted', sql`${t.reversesId} is null or ${t.phase} = 'posted'`),
]);
