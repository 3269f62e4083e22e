/**
 * Regulation E §1005.18(c)(5)'s fee totals, as SQL for the statements and the activity list to read in
 * their own statements. A fee is a transfer of kind 'fee' that debits the cardholder (a fee given back
 * is a reversal: a credit of its own kind, on its own line), counted at the time it was booked.
 * transfers_fees_idx finds an account's fees without reading its other transfers.
 */
import { type SQL, sql } from 'drizzle-orm';

/**
 * The cents of fees charged to `ledgerAccount` (its id as SQL) booked from `from` on, and before `until`
 * when given: values or placeholders (timestamptz).
 */
export const feesChargedSql = (ledgerAccount: SQL, from: SQL, until?: SQL): SQL =>
  sql`(select coalesce(sum(f.amount_cents), 0) from transfers f
    where f.debit_ledger_account_id = ${ledgerAccount} and f.kind = 'fee' and f.phase in ('posted', 'post_pending')
      and f.occurred_at >= ${from} ${until ? sql`and f.occurred_at < ${until}` : sql``})`;
