/**
 * Monthly statements from the ledger (contract/statements/types.ts). A month's money is what the
 * ledger booked for the cardholder in it: each posted entry in the month of its own time, a
 * single-phase posted transfer at its time, and a settled hold's post (the amount settled) at the time
 * it posted, not the hold's. A hold made in one month and settled in a later one is shown in the first
 * as pending at the month's end, and counted in the month it settled. So a month's statement depends
 * only on entries timed before the month ended: once the month is over it never changes (docs/
 * decisions.md "Statements"). Holds pending at the month's end (at `now` for the current month) are
 * listed apart and count in no balance; holds released or expired moved no money. Months are calendar
 * months in US Eastern time, the program's calendar (contract/shared/businessDays.ts). The opening
 * balance of a month is everything booked before it (credits minus debits); the closing balance adds
 * the month's credits and takes its debits, so the last month's closing balance is the ledger's posted
 * balance.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { TransactionKind } from '../../../contract/activity/types.ts';
import type { Statement } from '../../../contract/statements/types.ts';
import { usEasternTimeZone } from '../../../contract/shared/businessDays.ts';
import type { Database } from '../../db/database.ts';
import { feesChargedSql } from '../ledger/index.ts';
import { monthStart, nextMonth, usMonthOf } from '../../shared/usMonths.ts';

/** One posted movement of the cardholder's money, as a statement lists it. */
export type StatementRow = {
  id: string;
  /** When it happened (a settled hold: when it settled, the month it counts in), milliseconds since the epoch. */
  at: number;
  kind: TransactionKind;
  counterparty: string | null;
  /** Where it happened (a store's town, an ATM's street), as the terminal reported it; null when nowhere (a deposit, a fee). */
  location: string | null;
  /** Cents; positive is a credit. */
  amount: number;
};

/** One month's statement: the totals of the list (not `onHold`: it lists the holds themselves, `pending`), and every row, oldest first. */
export type MonthStatement = Omit<Statement, 'onHold'> & {
  cardholderName: string;
  prn: string;
  /** Cents, positive: the fees charged (debited) in the month, part of `debits`; a fee given back is a credit. */
  fees: number;
  /** Cents, positive: the fees charged from January 1 (US Eastern) of the month's year through the month's end (Regulation E §1005.18(c)(5)). */
  feesThisYear: number;
  rows: StatementRow[];
  /** Holds still pending at `asOf`, oldest first (`at`: when the hold was made): in no balance. */
  pending: StatementRow[];
  /** When the statement stands: the month's end once it is over, or `now` while it runs. */
  asOf: Date;
  /** The month is the current one: its statement shows the activity so far. */
  inProgress: boolean;
};

/** A transfer's amount, signed for the cardholder (`ledger`: their ledger account's id as SQL): positive when it credits them. */
const signedAmount = (transfer: string, ledger: SQL) =>
  sql`(case when ${sql.raw(transfer)}.credit_ledger_account_id = ${ledger} then 1 else -1 end) * ${sql.raw(transfer)}.amount_cents`;

/**
 * The cardholder's account and its booked movements as SQL: `acct` (the account, the cardholder's
 * name, the ledger account, when it opened) and `moves` (each posted entry: at, id, kind,
 * counterparty, signed amount). A settled hold's post is at its own time, with the hold's id (as the
 * activity list names it) and what it copied from the hold (kind, counterparty). A card account
 * without a ledger account yet has no movements.
 */
function accountAndMoves(userId: string): SQL {
  const ledger = sql`(select lid from acct)`;
  return sql`with acct as (
      select a.prn, a.created_at, u.first_name, u.middle_name, u.last_name, la.id as lid
      from accounts a join users u on u.id = a.user_id left join ledger_accounts la on la.account_id = a.id
      where a.user_id = ${userId} order by a.created_at limit 1),
    moves as (
      select t.occurred_at as at, coalesce(t.pending_id, t.id) as id, t.kind, t.counterparty, t.location, ${signedAmount('t', ledger)} as amount
      from transfers t
      where t.phase in ('posted', 'post_pending') and (t.debit_ledger_account_id = ${ledger} or t.credit_ledger_account_id = ${ledger}))`;
}

/**
 * The holds pending at `asOf` as a JSON array of statement rows, oldest first: not timed out by it,
 * and for a month that is over, made before it and not posted or voided by an entry timed before it
 * (so a later settlement or release leaves a closed month's list as it was). For the month under way
 * (`underWay`: `asOf` is now), every hold recorded and nothing that resolved it, whatever time its
 * writer's clock gave it, as home and activity judge them: an instance whose clock runs ahead would
 * otherwise leave a settled hold listed as pending beside its own settlement.
 */
const pendingAtSql = (asOf: string, underWay: boolean) => {
  const ledger = sql`(select lid from acct)`;
  const before = (alias: string) => (underWay ? sql`` : sql`and ${sql.raw(alias)}.occurred_at < ${asOf}::timestamptz`);
  return sql`coalesce((select json_agg(json_build_object('id', h.id, 'at', (extract(epoch from h.occurred_at) * 1000)::bigint, 'kind', h.kind,
      'counterparty', h.counterparty, 'location', h.location, 'amount', ${signedAmount('h', ledger)}) order by h.occurred_at, h.id)
    from transfers h
    where h.phase = 'pending' and (h.debit_ledger_account_id = ${ledger} or h.credit_ledger_account_id = ${ledger})
      ${before('h')} and (h.timeout_at is null or h.timeout_at > ${asOf}::timestamptz)
      and not exists (select 1 from transfers r where r.pending_id = h.id ${before('r')})), '[]'::json)`;
};

/**
 * Runs `read` once the cardholder's ledger writes under way have committed: it waits for their lock
 * (FOR SHARE, against their FOR UPDATE), then lets it go before reading (READ COMMITTED: the read sees
 * them), so no card write waits for a statement. A write times its transfers once it holds that lock
 * (Ledger.now), so one that commits into a month that has just ended is seen by every read of that
 * month, and one that gets the lock after this is timed after it, in the next: a month that is over
 * reads the same before and after (docs/decisions.md "Statements").
 */
async function afterWritesUnderWay<R>(db: Database, userId: string, read: () => Promise<R>): Promise<R> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select la.id from ledger_accounts la join accounts a on a.id = la.account_id where a.user_id = ${userId} for share of la`);
  });
  return read();
}

/** When the account opened: its own creation, or its first posted movement when that came earlier. */
const openedAtSql = sql`(extract(epoch from least(acct.created_at, (select min(at) from moves))) * 1000)::bigint`;

/** Every month from the one the account opened through the current one (US Eastern), newest first; null without an account. */
export async function loadStatements(db: Database, request: { userId: string; now: Date }): Promise<Statement[] | null> {
  const { rows } = (await afterWritesUnderWay(db, request.userId, () => db.execute(sql`${accountAndMoves(request.userId)}
    select ${openedAtSql} as "openedAt", ${pendingAtSql(request.now.toISOString(), true)} as pending,
      coalesce((select json_agg(json_build_object('month', month, 'credits', credits, 'debits', debits))
        from (select to_char(at at time zone ${usEasternTimeZone}, 'YYYY-MM') as month,
            coalesce(sum(amount) filter (where amount > 0), 0) as credits,
            coalesce(-sum(amount) filter (where amount < 0), 0) as debits
          from moves group by 1) totals), '[]'::json) as months
    from acct`))) as unknown as {
    rows: { openedAt: string | number; pending: JsonRow[]; months: { month: string; credits: number; debits: number }[] }[];
  };
  const account = rows[0];
  if (!account) return null;
  // Pending debits are out of the available balance already; pending credits add nothing to it yet.
  const onHold = account.pending.reduce((sum, row) => (Number(row.amount) < 0 ? sum - Number(row.amount) : sum), 0);
  const totals = new Map(account.months.map((row) => [row.month, row]));
  const first = usMonthOf(new Date(Number(account.openedAt)));
  const current = usMonthOf(request.now);
  const statements: Statement[] = [];
  let balance = 0;
  for (let month = first; month <= current; month = nextMonth(month)) {
    const credits = Number(totals.get(month)?.credits ?? 0);
    const debits = Number(totals.get(month)?.debits ?? 0);
    const closingBalance = balance + credits - debits;
    const inProgress = month === current;
    statements.push({ month, openingBalance: balance, closingBalance, credits, debits, inProgress, onHold: inProgress ? onHold : 0 });
    balance = closingBalance;
  }
  return statements.reverse();
}

type MonthQueryRow = {
  openedAt: string | number;
  prn: string;
  firstName: string;
  middleName: string | null;
  lastName: string;
  opening: string | number;
  feesThisYear: string | number;
  rows: JsonRow[];
  pending: JsonRow[];
};

type JsonRow = { id: string; at: string | number; kind: TransactionKind; counterparty: string | null; location: string | null; amount: string | number };

const statementRowOf = (row: JsonRow): StatementRow => ({
  id: row.id,
  at: Number(row.at),
  kind: row.kind,
  counterparty: row.counterparty,
  location: row.location,
  amount: Number(row.amount),
});

/**
 * One month's statement, or null when the month is outside the account's life (before it opened,
 * after the current month) or the cardholder has no account. A month that is over reads only entries
 * timed before its end, so its statement is the same whenever it is asked for.
 */
export async function loadMonthStatement(db: Database, request: { userId: string; month: string; now: Date }): Promise<MonthStatement | null> {
  const current = usMonthOf(request.now);
  // No account is older than 1970; before 1883 New York kept its own mean time, with no month's
  // midnight for monthStart to find.
  if (request.month > current || request.month < '1970-01') return null;
  const start = monthStart(request.month).toISOString();
  const end = monthStart(nextMonth(request.month)).toISOString();
  const yearStart = monthStart(`${request.month.slice(0, 4)}-01`).toISOString();
  const inProgress = request.month === current;
  const asOf = inProgress ? request.now : monthStart(nextMonth(request.month));
  const { rows } = (await afterWritesUnderWay(db, request.userId, () => db.execute(sql`${accountAndMoves(request.userId)}
    select ${openedAtSql} as "openedAt", acct.prn, acct.first_name as "firstName", acct.middle_name as "middleName", acct.last_name as "lastName",
      (select coalesce(sum(amount), 0) from moves where at < ${start}::timestamptz) as opening,
      ${feesChargedSql(sql`(select lid from acct)`, sql`${yearStart}::timestamptz`, sql`${end}::timestamptz`)} as "feesThisYear",
      coalesce((select json_agg(json_build_object('id', id, 'at', (extract(epoch from at) * 1000)::bigint, 'kind', kind,
          'counterparty', counterparty, 'location', location, 'amount', amount) order by at, kind = 'fee', id)
        from moves where at >= ${start}::timestamptz and at < ${end}::timestamptz), '[]'::json) as rows,
      ${pendingAtSql(asOf.toISOString(), inProgress)} as pending
    from acct`))) as unknown as { rows: MonthQueryRow[] };
  const account = rows[0];
  if (!account || request.month < usMonthOf(new Date(Number(account.openedAt)))) return null;

  const statementRows = account.rows.map(statementRowOf);
  const credits = statementRows.reduce((sum, row) => (row.amount > 0 ? sum + row.amount : sum), 0);
  const debits = statementRows.reduce((sum, row) => (row.amount < 0 ? sum - row.amount : sum), 0);
  // The fees charged, as the statement says, "included in debits": a fee given back is a credit, on its
  // own line, and never makes this figure negative.
  const fees = statementRows.reduce((sum, row) => (row.kind === 'fee' ? sum - row.amount : sum), 0);
  const openingBalance = Number(account.opening);
  return {
    month: request.month,
    openingBalance,
    closingBalance: openingBalance + credits - debits,
    credits,
    debits,
    fees,
    feesThisYear: Number(account.feesThisYear),
    rows: statementRows,
    pending: account.pending.map(statementRowOf),
    asOf,
    cardholderName: [account.firstName, account.middleName, account.lastName].filter(Boolean).join(' '),
    prn: account.prn,
    inProgress,
  };
}
