/** Ledger accounts: the system ones, a cardholder's, its cushion, and its balances. */
import { and, eq, lte, notExists, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/database.ts';
import { ledgerAccounts, type SystemLedgerAccountKind, transfers } from '../../db/schema/index.ts';
import { availableCents, lockedWrite } from './writes.ts';

/** The system accounts, one per kind, with the ids migration 0007 gave them (no lookup needed). */
export const systemLedgerAccounts: Readonly<Record<SystemLedgerAccountKind, string>> = {
  settlement: '00000000-0000-8000-8000-000000000001',
  fee_revenue: '00000000-0000-8000-8000-000000000002',
  rewards_payable: '00000000-0000-8000-8000-000000000003',
  cushion_funding: '00000000-0000-8000-8000-000000000004',
};

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
 * Sets how far below zero the account's available balance may go. Lowering it below what is already
 * used of it is refused ('cushion_in_use'): the account would be under its floor.
 */
export async function setCushion(
  db: Database,
  change: { ledgerAccountId: string; cushionCents: number; now?: Date },
): Promise<{ result: 'updated' | 'invalid_amount' | 'account_not_found' | 'cushion_in_use' }> {
  const { ledgerAccountId, cushionCents } = change;
  if (!Number.isSafeInteger(cushionCents) || cushionCents < 0) return { result: 'invalid_amount' };
  // Under the account's lock, its expired holds released first (they no longer use the cushion).
  return lockedWrite(db, { accountIds: [ledgerAccountId], releaseHoldsOf: ledgerAccountId, now: change.now ?? new Date() }, async (ledger) => {
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
 * The account's balances at `now`: its columns, less the holds that have expired by then but that no
 * write has recorded yet (the next write or expirePendingTransfers will). Null for an unknown account.
 */
export async function balances(db: Database, ledgerAccountId: string, now: Date = new Date()): Promise<Balances | null> {
  const [row] = await db
    .select({
      account: ledgerAccounts,
      expiredDebits: expiredUnrecorded(db, 'debit', ledgerAccountId, now),
      expiredCredits: expiredUnrecorded(db, 'credit', ledgerAccountId, now),
    })
    .from(ledgerAccounts)
    .where(eq(ledgerAccounts.id, ledgerAccountId));
  if (!row) return null;
  const account = { ...row.account, debitsPending: row.account.debitsPending - row.expiredDebits };
  return {
    postedCents: account.creditsPosted - account.debitsPosted,
    pendingDebitsCents: account.debitsPending,
    pendingCreditsCents: account.creditsPending - row.expiredCredits,
    availableCents: availableCents(account),
    cushionCents: account.cushionCents,
  };
}
