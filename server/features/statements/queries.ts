/**
 * Monthly statements from the ledger (contract/statements/types.ts). A month's money is the
 * cardholder's posted transfers in it: single-phase posted transfers at their own time, and the posted
 * part of a hold (its post_pending) at the hold's time, as activity shows it, so a statement and the
 * activity list agree. Holds not yet settled, and holds released or expired, moved no money and are
 * left out. Months are UTC calendar months. The opening balance of a month is the sum of everything
 * posted before it (credits minus debits); the closing balance adds the month's credits and takes
 * its debits, so the last month's closing balance is the ledger's posted balance.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { TransactionKind } from '../../../contract/activity/types.ts';
import type { Statement } from '../../../contract/statements/types.ts';
import type { Database } from '../../db/database.ts';

/** One posted movement of the cardholder's money, as a statement lists it. */
export type StatementRow = {
  id: string;
  /** When it happened (a settled hold: when the hold was made), milliseconds since the epoch. */
  at: number;
  kind: TransactionKind;
  counterparty: string | null;
  /** Cents; positive is a credit. */
  amount: number;
};

/** One month's statement: the totals of the list, and every row, oldest first. */
export type MonthStatement = Statement & {
  cardholderName: string;
  prn: string;
  /** Cents, positive: the month's net fees (fee debits less fee credits), part of `debits`. */
  fees: number;
  rows: StatementRow[];
  /** The month is the current one: its statement shows the activity so far. */
  inProgress: boolean;
};

/** 'YYYY-MM' → [year, month 1-12]. */
const partsOf = (month: string): [number, number] => [Number(month.slice(0, 4)), Number(month.slice(5, 7))];
const monthOf = (year: number, month: number) => `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}`;
/** The UTC calendar month of an instant. */
export const utcMonthOf = (time: Date) => monthOf(time.getUTCFullYear(), time.getUTCMonth() + 1);
/** When a month begins (UTC); `monthStart('2026-12')` … `monthStart` of the next month is the month. */
export const monthStart = (month: string) => {
  const [year, number] = partsOf(month);
  return new Date(Date.UTC(year, number - 1, 1));
};
export const nextMonth = (month: string) => {
  const [year, number] = partsOf(month);
  return number === 12 ? monthOf(year + 1, 1) : monthOf(year, number + 1);
};

/**
 * The cardholder's account and its posted movements as SQL: `acct` (the account, the cardholder's
 * name, the ledger account, when it opened) and `moves` (each posted movement: at, id, kind,
 * counterparty, signed amount). A card account without a ledger account yet has no movements.
 */
function accountAndMoves(userId: string): SQL {
  const ledger = sql`(select lid from acct)`;
  /** The transfer's amount, signed for the cardholder: positive when it credits them. */
  const side = (transfer: 't' | 'p') =>
    sql`(case when ${sql.raw(transfer)}.credit_ledger_account_id = ${ledger} then 1 else -1 end) * ${sql.raw(transfer)}.amount_cents`;
  return sql`with acct as (
      select a.prn, a.created_at, u.first_name, u.middle_name, u.last_name, la.id as lid
      from accounts a join users u on u.id = a.user_id left join ledger_accounts la on la.account_id = a.id
      where a.user_id = ${userId} order by a.created_at limit 1),
    moves as (
      select t.occurred_at as at, t.id, t.kind, t.counterparty, ${side('t')} as amount
      from transfers t
      where t.phase = 'posted' and (t.debit_ledger_account_id = ${ledger} or t.credit_ledger_account_id = ${ledger})
      union all
      select h.occurred_at as at, h.id, h.kind, h.counterparty, ${side('p')} as amount
      from transfers p join transfers h on h.id = p.pending_id
      where p.phase = 'post_pending' and (p.debit_ledger_account_id = ${ledger} or p.credit_ledger_account_id = ${ledger}))`;
}

/** When the account opened: its own creation, or its first posted movement when that came earlier. */
const openedAtSql = sql`(extract(epoch from least(acct.created_at, (select min(at) from moves))) * 1000)::bigint`;

/** Every month from the one the account opened through the current one (UTC), newest first; null without an account. */
export async function loadStatements(db: Database, request: { userId: string; now: Date }): Promise<Statement[] | null> {
  const { rows } = (await db.execute(sql`${accountAndMoves(request.userId)}
    select ${openedAtSql} as "openedAt",
      coalesce((select json_agg(json_build_object('month', month, 'credits', credits, 'debits', debits))
        from (select to_char(at at time zone 'UTC', 'YYYY-MM') as month,
            coalesce(sum(amount) filter (where amount > 0), 0) as credits,
            coalesce(-sum(amount) filter (where amount < 0), 0) as debits
          from moves group by 1) totals), '[]'::json) as months
    from acct`)) as unknown as { rows: { openedAt: string | number; months: { month: string; credits: number; debits: number }[] }[] };
  const account = rows[0];
  if (!account) return null;
  const totals = new Map(account.months.map((row) => [row.month, row]));
  const first = utcMonthOf(new Date(Number(account.openedAt)));
  const current = utcMonthOf(request.now);
  const statements: Statement[] = [];
  let balance = 0;
  for (let month = first; month <= current; month = nextMonth(month)) {
    const credits = Number(totals.get(month)?.credits ?? 0);
    const debits = Number(totals.get(month)?.debits ?? 0);
    const closingBalance = balance + credits - debits;
    statements.push({ month, openingBalance: balance, closingBalance, credits, debits });
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
  rows: { id: string; at: string | number; kind: TransactionKind; counterparty: string | null; amount: string | number }[];
};

/**
 * One month's statement, or null when the month is outside the account's life (before it opened,
 * after the current month) or the cardholder has no account.
 */
export async function loadMonthStatement(db: Database, request: { userId: string; month: string; now: Date }): Promise<MonthStatement | null> {
  const current = utcMonthOf(request.now);
  if (request.month > current) return null;
  const start = monthStart(request.month).toISOString();
  const end = monthStart(nextMonth(request.month)).toISOString();
  const { rows } = (await db.execute(sql`${accountAndMoves(request.userId)}
    select ${openedAtSql} as "openedAt", acct.prn, acct.first_name as "firstName", acct.middle_name as "middleName", acct.last_name as "lastName",
      (select coalesce(sum(amount), 0) from moves where at < ${start}::timestamptz) as opening,
      coalesce((select json_agg(json_build_object('id', id, 'at', (extract(epoch from at) * 1000)::bigint, 'kind', kind,
          'counterparty', counterparty, 'amount', amount) order by at, id)
        from moves where at >= ${start}::timestamptz and at < ${end}::timestamptz), '[]'::json) as rows
    from acct`)) as unknown as { rows: MonthQueryRow[] };
  const account = rows[0];
  if (!account || request.month < utcMonthOf(new Date(Number(account.openedAt)))) return null;

  const statementRows: StatementRow[] = account.rows.map((row) => ({
    id: row.id,
    at: Number(row.at),
    kind: row.kind,
    counterparty: row.counterparty,
    amount: Number(row.amount),
  }));
  const credits = statementRows.reduce((sum, row) => (row.amount > 0 ? sum + row.amount : sum), 0);
  const debits = statementRows.reduce((sum, row) => (row.amount < 0 ? sum - row.amount : sum), 0);
  const fees = statementRows.reduce((sum, row) => (row.kind === 'fee' ? sum - row.amount : sum), 0);
  const openingBalance = Number(account.opening);
  return {
    month: request.month,
    openingBalance,
    closingBalance: openingBalance + credits - debits,
    credits,
    debits,
    fees,
    rows: statementRows,
    cardholderName: [account.firstName, account.middleName, account.lastName].filter(Boolean).join(' '),
    prn: account.prn,
    inProgress: request.month === current,
  };
}
