/** Ledger accounts: the system ones, a cardholder's, its cushion, and its balances. */
import { and, eq, inArray, lte, notExists, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/database.ts';
import { ledgerAccounts, transfers } from '../../db/schema/index.ts';
import { isSystemLedgerAccount } from './ids.ts';
import { availableCents, lockedWrite } from './writes.ts';

export { systemLedgerAccounts } from './ids.ts';

/**
 * The ledger account of a card account (`accounts.id`): made on first use, the same one after. A
 * cardholder's available balance never goes below zero (nor below −cushion, once one is set).
 */
export async function openCardholderLedgerAccount(db: Database, accountId: string): Promise<string> {
  const [opened] = await db
    .insert(ledgerAccounts)
    .values({ kind: 'cardholder', accountId, debitsMustNotExceedCredits: true })
    .onConflictDoNothing({ target: ledgerAccounts.accountId })
    .returning({ id: ledgerAccounts.id });
  if (opened) return opened.id;
  const [existing] = await db.select({ id: ledgerAccounts.id }).from(ledgerAccounts).where(eq(ledgerAccounts.accountId, accountId));
  return existing!.id;
}

/**
 * Sets how far below zero a cardholder account's available balance may go. Lowering it below what is
 * already used of it is refused ('cushion_in_use'): the account would be under its floor. Any other id
 * answers 'account_not_found' (a system account has no floor, so no cushion).
 */
export async function setCushion(
  db: Database,
  change: { ledgerAccountId: string; cushionCents: number; now?: Date },
): Promise<{ result: 'updated' | 'invalid_amount' | 'account_not_found' | 'cushion_in_use' }> {
  const { ledgerAccountId, cushionCents } = change;
  if (!Number.isSafeInteger(cushionCents) || cushionCents < 0) return { result: 'invalid_amount' };
  if (isSystemLedgerAccount(ledgerAccountId)) return { result: 'account_not_found' };
  // Under the account's lock, its expired holds released first (they no longer use the cushion).
  return lockedWrite(db, { accountIds: [ledgerAccountId], releaseHoldsOf: ledgerAccountId, now: change.now }, async (ledger) => {
    const account = ledger.account(ledgerAccountId);
    if (!account) return { result: 'account_not_found' } as const;
    if (account.debitsMustNotExceedCredits && availableCents({ ...account, cushionCents }) < 0) return { result: 'cushion_in_use' } as const;
    ledger.setCushion(ledgerAccountId, cushionCents);
    return { result: 'updated' } as const;
  });
}

/** An account's balances in cents, as the next write will see them at `now`. */
export type Balances = {
  /** Credits posted − debits posted. */
  postedCents: number;
  /** Held by live pending transfers debiting the account. */
  pendingDebitsCents: number;
  /** On their way to it by live pending transfers crediting it. */
  pendingCreditsCents: number;
  /** Posted − pending debits + cushion: what a cardholder may still spend. */
  availableCents: number;
  cushionCents: number;
};

const holds = alias(transfers, 'hold');
const resolutions = alias(transfers, 'resolution');

/** What the account's pending transfers on one side whose timeout has passed, but whose expiry no write recorded yet, hold (a subquery). */
function expiredUnrecorded(db: Database, side: 'debit' | 'credit', ledgerAccountId: string, now: Date) {
  const account = side === 'debit' ? holds.debitLedgerAccountId : holds.creditLedgerAccountId;
  const unresolved = notExists(db.select({ one: sql`1` }).from(resolutions).where(eq(resolutions.pendingId, holds.id)));
  const cents = db
    .select({ cents: sql`coalesce(sum(${holds.amountCents}), 0)` })
    .from(holds)
    .where(and(eq(holds.phase, 'pending'), eq(account, ledgerAccountId), lte(holds.timeoutAt, now), unresolved));
  return sql`(${cents})`.mapWith(Number);
}

/**
 * What the account's transfers on one side add up to (a subquery): posted ones (and posts of holds),
 * or pending ones not yet posted or voided. A system account's balance columns are these sums.
 */
function transferSum(db: Database, side: 'debit' | 'credit', which: 'posted' | 'pending', ledgerAccountId: string) {
  const account = side === 'debit' ? holds.debitLedgerAccountId : holds.creditLedgerAccountId;
  const phase =
    which === 'posted'
      ? inArray(holds.phase, ['posted', 'post_pending'])
      : and(eq(holds.phase, 'pending'), notExists(db.select({ one: sql`1` }).from(resolutions).where(eq(resolutions.pendingId, holds.id))));
  const cents = db
    .select({ cents: sql`coalesce(sum(${holds.amountCents}), 0)` })
    .from(holds)
    .where(and(eq(account, ledgerAccountId), phase));
  return sql`(${cents})`.mapWith(Number);
}

/**
 * The account's balances at `now`: its columns (a system account's: the sums of its transfers, as it
 * keeps none), less the holds that have expired by then but that no write has recorded yet (the next
 * write or expirePendingTransfers will). Null for an unknown account. A system account's balances
 * read all its transfers: for reports and audits, not for every request.
 */
export async function balances(db: Database, ledgerAccountId: string, now: Date = new Date()): Promise<Balances | null> {
  const [row] = await db
    .select({
      account: ledgerAccounts,
      expiredDebits: expiredUnrecorded(db, 'debit', ledgerAccountId, now),
      expiredCredits: expiredUnrecorded(db, 'credit', ledgerAccountId, now),
      ...(isSystemLedgerAccount(ledgerAccountId) && {
        summed: {
          debitsPending: transferSum(db, 'debit', 'pending', ledgerAccountId),
          debitsPosted: transferSum(db, 'debit', 'posted', ledgerAccountId),
          creditsPending: transferSum(db, 'credit', 'pending', ledgerAccountId),
          creditsPosted: transferSum(db, 'credit', 'posted', ledgerAccountId),
        },
      }),
    })
    .from(ledgerAccounts)
    .where(eq(ledgerAccounts.id, ledgerAccountId));
  if (!row) return null;
  const columns = { ...row.account, ...('summed' in row ? row.summed : {}) };
  const account = { ...columns, debitsPending: columns.debitsPending - row.expiredDebits };
  return {
    postedCents: account.creditsPosted - account.debitsPosted,
    pendingDebitsCents: account.debitsPending,
    pendingCreditsCents: columns.creditsPending - row.expiredCredits,
    availableCents: availableCents(account),
    cushionCents: account.cushionCents,
  };
}
