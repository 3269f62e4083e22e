/**
 * The activity bench's history (docs/architecture.md §11: the first page of GET /api/v1/transactions,
 * p99 ≤ 25 ms at 500 req/s with 100,000 transfers in the account). Posting 100,000 transfers through
 * the ledger service would take minutes on PGlite, so this bench-only bulk load BYPASSES THE SERVICE ON
 * PURPOSE: one SQL statement inserts the transfers with `generate_series` and adds what they move to
 * the demo cardholder's balance columns, together. It keeps the ledger consistent as the service
 * would (deposits and purchases alternating from the oldest, a deposit, so the balance never goes below
 * zero; the other side is the settlement account, a system account, which keeps no balance columns),
 * and the caller runs invariantReport afterwards to prove it. Nothing outside the bench may write the
 * ledger this way (docs/decisions.md "The ledger": every money feature posts through the service).
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../../server/db/database.ts';
import { invariantReport, systemLedgerAccounts } from '../../server/features/ledger/index.ts';
import { demoCardholder } from '../../server/seed.ts';

export type ActivityHistory = { transfers: number; loadMs: number; invariantOk: boolean; problems: string[] };

/**
 * Adds `count` posted transfers to the demo cardholder's account, one a minute back from now (newest
 * first: the first page is all bulk-loaded), every other one a deposit of $20.00 or a purchase of
 * $15.00; then checks the ledger's invariants.
 */
export async function loadActivityHistory(db: Database, count: number): Promise<ActivityHistory> {
  const started = performance.now();
  const { settlement } = systemLedgerAccounts;
  await db.execute(sql`
    with account as (
      select la.id from ledger_accounts la join accounts a on a.id = la.account_id join users u on u.id = a.user_id
      where lower(u.email) = lower(${demoCardholder.email})
    ),
    inserted as (
      insert into transfers (id, debit_ledger_account_id, credit_ledger_account_id, amount_cents, phase, kind, counterparty, location, occurred_at)
      select gen_random_uuid(),
        case when i % 2 = 0 then ${settlement}::uuid else account.id end,
        case when i % 2 = 0 then account.id else ${settlement}::uuid end,
        case when i % 2 = 0 then 2000 else 1500 end,
        'posted',
        case when i % 2 = 0 then 'deposit' else 'purchase' end,
        case when i % 2 = 0 then 'Sunrise Home Care' else 'Save Mart' end,
        case when i % 2 = 0 then null else 'Fresno, CA' end,
        now() - i * interval '1 minute'
      from account, generate_series(1, ${count}::int) i
      returning debit_ledger_account_id, credit_ledger_account_id, amount_cents
    )
    update ledger_accounts la set
      credits_posted = la.credits_posted + (select coalesce(sum(amount_cents), 0) from inserted where credit_ledger_account_id = la.id),
      debits_posted = la.debits_posted + (select coalesce(sum(amount_cents), 0) from inserted where debit_ledger_account_id = la.id)
    from account where la.id = account.id`);
  // Fresh statistics for the planner, on either database (autovacuum would get there later).
  await db.execute(sql`analyze transfers`);
  const loadMs = performance.now() - started;
  const report = await invariantReport(db);
  const { rows } = (await db.execute(sql`
    select count(*)::int as n from transfers t join ledger_accounts la on la.id in (t.debit_ledger_account_id, t.credit_ledger_account_id)
    join accounts a on a.id = la.account_id join users u on u.id = a.user_id where lower(u.email) = lower(${demoCardholder.email})`)) as unknown as {
    rows: { n: number }[];
  };
  return { transfers: Number(rows[0]!.n), loadMs, invariantOk: report.ok, problems: report.problems };
}
