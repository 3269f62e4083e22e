/**
 * The ledger's invariants, checked from scratch: what tests assert after every sequence of writes, and
 * what an audit job can run. One statement, so one snapshot: writes going on meanwhile cannot make it
 * see half of one. It reads every transfer; it is an audit, not a per-request check.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import { holdSettledForMore } from './transfers.ts';

export type InvariantReport = {
  ok: boolean;
  totalDebitsPosted: number;
  totalCreditsPosted: number;
  totalDebitsPending: number;
  totalCreditsPending: number;
  /** One sentence per broken invariant (empty when ok). */
  problems: string[];
};

type ReportRow = { totals: Omit<InvariantReport, 'ok' | 'problems'>; problems: string[] };

/**
 * - Every transfer debits one account and credits another by the same amount, so over all accounts
 *   (cardholders by their balance columns, system accounts by their transfers) debits equal credits,
 *   posted and pending alike.
 * - Each cardholder account's four balance columns equal what its transfers add up to: posted and
 *   posted-pending transfers count as posted, pending ones not posted, voided or expired as pending.
 *   A system account keeps no columns (all zero): its balances are what its transfers add up to.
 * - No account with a floor is below it (debits posted + pending ≤ credits posted + cushion).
 * - A pending transfer is resolved at most once, by a post of at most its amount (a purchase's may be
 *   more: holdSettledForMore) or a void of all of it, between its own accounts; a reversal mirrors a posted
 *   transfer.
 */
export async function invariantReport(db: Database): Promise<InvariantReport> {
  const { rows } = (await db.execute(sql`
    with live_pending as (
      select p.* from transfers p where p.phase = 'pending' and not exists (select 1 from transfers r where r.pending_id = p.id)
    ),
    effects (ledger_account_id, debits_pending, debits_posted, credits_pending, credits_posted) as (
      select debit_ledger_account_id, 0::bigint, amount_cents, 0::bigint, 0::bigint from transfers where phase in ('posted', 'post_pending')
      union all
      select credit_ledger_account_id, 0, 0, 0, amount_cents from transfers where phase in ('posted', 'post_pending')
      union all
      select debit_ledger_account_id, amount_cents, 0, 0, 0 from live_pending
      union all
      select credit_ledger_account_id, 0, 0, amount_cents, 0 from live_pending
    ),
    sums as (
      select ledger_account_id, sum(debits_pending) as debits_pending, sum(debits_posted) as debits_posted,
        sum(credits_pending) as credits_pending, sum(credits_posted) as credits_posted
      from effects group by ledger_account_id
    ),
    -- Each account's balances: a cardholder's columns, a system account's transfers.
    balances as (
      select a.id,
        case when a.account_id is null then coalesce(s.debits_pending, 0) else a.debits_pending end as debits_pending,
        case when a.account_id is null then coalesce(s.debits_posted, 0) else a.debits_posted end as debits_posted,
        case when a.account_id is null then coalesce(s.credits_pending, 0) else a.credits_pending end as credits_pending,
        case when a.account_id is null then coalesce(s.credits_posted, 0) else a.credits_posted end as credits_posted
      from ledger_accounts a left join sums s on s.ledger_account_id = a.id
    ),
    problems (problem) as (
      select format('ledger account %s (%s): its balances (debits pending %s, posted %s; credits pending %s, posted %s) are not what its transfers add up to (%s, %s; %s, %s)',
        a.id, a.kind, a.debits_pending, a.debits_posted, a.credits_pending, a.credits_posted,
        coalesce(s.debits_pending, 0), coalesce(s.debits_posted, 0), coalesce(s.credits_pending, 0), coalesce(s.credits_posted, 0))
      from ledger_accounts a left join sums s on s.ledger_account_id = a.id
      where a.account_id is not null and (a.debits_pending, a.debits_posted, a.credits_pending, a.credits_posted)
        is distinct from (coalesce(s.debits_pending, 0), coalesce(s.debits_posted, 0), coalesce(s.credits_pending, 0), coalesce(s.credits_posted, 0))
      union all
      select format('system ledger account %s (%s) has balance columns (debits pending %s, posted %s; credits pending %s, posted %s, cushion %s): it keeps none, its transfers are its balances',
        a.id, a.kind, a.debits_pending, a.debits_posted, a.credits_pending, a.credits_posted, a.cushion_cents)
      from ledger_accounts a
      where a.account_id is null and (a.debits_pending, a.debits_posted, a.credits_pending, a.credits_posted, a.cushion_cents) <> (0, 0, 0, 0, 0)
      union all
      select format('ledger account %s (%s) is below its floor: debits posted %s + pending %s exceed credits posted %s + cushion %s',
        a.id, a.kind, a.debits_posted, a.debits_pending, a.credits_posted, a.cushion_cents)
      from ledger_accounts a
      where a.debits_must_not_exceed_credits and a.debits_posted + a.debits_pending > a.credits_posted + a.cushion_cents
      union all
      select format('pending transfer %s is resolved %s times', pending_id, count(*))
      from transfers where pending_id is not null group by pending_id having count(*) > 1
      union all
      select format('%s %s does not resolve pending transfer %s as a post of at most its amount (a purchase: any) or a void of all of it, between its accounts', r.phase, r.id, p.id)
      from transfers r join transfers p on p.id = r.pending_id
      where p.phase <> 'pending'
        or r.debit_ledger_account_id <> p.debit_ledger_account_id or r.credit_ledger_account_id <> p.credit_ledger_account_id
        or (r.phase = 'post_pending' and r.amount_cents > p.amount_cents and p.kind <> ${holdSettledForMore})
        or (r.phase = 'void_pending' and r.amount_cents <> p.amount_cents)
      union all
      select format('reversal %s does not mirror posted transfer %s', v.id, o.id)
      from transfers v join transfers o on o.id = v.reverses_id
      where o.phase not in ('posted', 'post_pending') or v.debit_ledger_account_id <> o.credit_ledger_account_id
        or v.credit_ledger_account_id <> o.debit_ledger_account_id or v.amount_cents <> o.amount_cents
    )
    select
      (select json_build_object(
        'totalDebitsPosted', coalesce(sum(debits_posted), 0), 'totalCreditsPosted', coalesce(sum(credits_posted), 0),
        'totalDebitsPending', coalesce(sum(debits_pending), 0), 'totalCreditsPending', coalesce(sum(credits_pending), 0))
       from balances) as totals,
      coalesce((select json_agg(problem) from problems), '[]'::json) as problems
  `)) as unknown as { rows: ReportRow[] };
  const { totals, problems } = rows[0]!;
  const report = {
    totalDebitsPosted: Number(totals.totalDebitsPosted),
    totalCreditsPosted: Number(totals.totalCreditsPosted),
    totalDebitsPending: Number(totals.totalDebitsPending),
    totalCreditsPending: Number(totals.totalCreditsPending),
  };
  const all = [
    ...(report.totalDebitsPosted === report.totalCreditsPosted
      ? []
      : [`posted debits (${report.totalDebitsPosted}) and credits (${report.totalCreditsPosted}) differ over all accounts`]),
    ...(report.totalDebitsPending === report.totalCreditsPending
      ? []
      : [`pending debits (${report.totalDebitsPending}) and credits (${report.totalCreditsPending}) differ over all accounts`]),
    ...problems,
  ];
  return { ok: all.length === 0, ...report, problems: all };
}
