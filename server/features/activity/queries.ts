/**
 * Activity as a cardholder sees it (contract/activity/types.ts), read from the ledger's transfers of
 * their ledger account: posted transfers, and holds with their status. A hold that was posted shows
 * the amount posted, at the place and time of the hold (so a page never reorders); a voided hold, or
 * one past its timeout that no write has recorded yet, moved no money and is not activity (the
 * ledger's balances leave it out the same way). Pages are keyset pages on (occurred_at, id), newest
 * first, read from the two indexes of the account's debits and credits and merged.
 */
import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { FeeTotals, Transaction, TransactionDetail, TransactionKind } from '../../../contract/activity/types.ts';
import { uuidPattern } from '../../../contract/rules.ts';
import type { Database } from '../../db/database.ts';
import { answerRequest, type CurrentVersion, firstTime, keptAnswers } from '../../db/keptAnswers.ts';
import { type PreparedStatement, runPrepared } from '../../db/prepared.ts';
import { familyRevokedSql } from '../../sessions.ts';
import { monthStart, nextMonth, previousMonth, usMonthOf } from '../../shared/usMonths.ts';
import { feesChargedSql } from '../ledger/index.ts';

/** Where a page starts: after this transfer (its time in microseconds since the epoch, exactly as stored, and its id). */
export type ActivityCursor = { micros: bigint; id: string };

/** The opaque cursor the app gets back: base64url of `micros.id`. */
export const encodeCursor = (cursor: ActivityCursor): string => Buffer.from(`${cursor.micros}.${cursor.id}`).toString('base64url');

/** Null for anything that is not a cursor this server made (the caller answers 400). */
export function decodeCursor(text: string): ActivityCursor | null {
  const [micros, id, extra] = Buffer.from(text, 'base64url').toString('utf8').split('.');
  if (extra !== undefined || !micros || !/^\d{1,17}$/.test(micros) || !id || !uuidPattern.test(id)) return null;
  return { micros: BigInt(micros), id };
}

/** A row of activityRowsSql: as the database driver gives it, or as JSON (json_agg) gives it. */
export type ActivityRow = {
  id: string;
  micros: string;
  occurred_at: string;
  kind: TransactionKind;
  counterparty: string | null;
  location: string | null;
  amount: string | number;
  pending: boolean;
  timeout_at: string | null;
};

/** The parts of the activity query that change per call, as SQL (values, or placeholders of a prepared statement). */
type RowsParts = {
  /** The ledger account's id. */
  account: SQL;
  /** The time holds are judged at (a timestamptz). */
  now: SQL;
  /** Rows strictly older than this keyset position, or null for the newest. */
  after: { micros: SQL; id: SQL } | null;
  limit: number;
};

/**
 * One side's transfers of the account that are activity at `now`, newest first, after the cursor:
 * read in the order of that side's keyset index, each with its resolution (a hold's post or void; at
 * most one, `transfers_pending_id_unique`) probed by that index. A voided hold, or a hold past its
 * timeout with no resolution, is not activity; a posted hold shows the amount posted. On the debit
 * side every amount is money out (the credit side is never the same account).
 */
function side(column: 'debit_ledger_account_id' | 'credit_ledger_account_id', parts: RowsParts): SQL {
  const after = parts.after
    ? sql`and (t.occurred_at, t.id) < (timestamptz 'epoch' + ${parts.after.micros}::bigint * interval '1 microsecond', ${parts.after.id}::uuid)`
    : sql``;
  const sign = sql.raw(column === 'credit_ledger_account_id' ? '1' : '-1');
  return sql`(select t.id, t.occurred_at, t.kind, t.counterparty, t.location, t.timeout_at,
      ${sign} * coalesce(case when r.phase = 'post_pending' then r.amount_cents end, t.amount_cents) as amount,
      (t.phase = 'pending' and r.id is null) as pending
    from transfers t left join transfers r on r.pending_id = t.id
    where t.${sql.raw(column)} = ${parts.account} and t.phase in ('posted', 'pending') ${after}
      and r.phase is distinct from 'void_pending'
      -- A hold with no timeout never expires: its comparison is null, and "not null" would drop the row.
      and not (t.phase = 'pending' and r.id is null and coalesce(t.timeout_at <= ${parts.now}, false))
    order by t.occurred_at desc, t.id desc limit ${sql.raw(String(parts.limit))})`;
}

/** Both sides merged: at most `limit` rows, newest first (columns of ActivityRow). */
function activityRows(parts: RowsParts): SQL {
  return sql`select t.id, (extract(epoch from t.occurred_at) * 1000000)::bigint::text as micros, t.occurred_at, t.kind,
      t.counterparty, t.location, t.timeout_at, t.amount, t.pending
    from (${side('debit_ledger_account_id', parts)} union all ${side('credit_ledger_account_id', parts)}) t
    order by t.occurred_at desc, t.id desc limit ${sql.raw(String(parts.limit))}`;
}

const pageLimit = (limit: number) => {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new Error(`activity: a page limit must be a positive integer, not ${limit}`);
  return limit;
};

/**
 * The account's newest activity rows as SQL, at most `limit` (so GET /home can read them inside its one
 * statement). `ledgerAccountId` and `now` are SQL: values, or placeholders of a prepared statement.
 */
export function activityRowsSql(ledgerAccountId: SQL, options: { limit: number; now: SQL }): SQL {
  return activityRows({ account: ledgerAccountId, now: options.now, after: null, limit: pageLimit(options.limit) });
}

/** A row as the API sends it (timestamps as ISO 8601 in UTC, amounts as numbers of cents). */
export function transactionOf(row: ActivityRow): Transaction {
  const pending = row.pending;
  return {
    id: row.id,
    amount: Number(row.amount),
    timestamp: new Date(row.occurred_at).toISOString(),
    kind: row.kind,
    status: pending ? 'pending' : 'posted',
    counterparty: row.counterparty,
    location: row.location,
    heldUntil: pending && row.timeout_at ? new Date(row.timeout_at).toISOString() : null,
  };
}

/** The cardholder's ledger account `la` (one row, or none yet), from their user id: a value, or a placeholder of a prepared statement. */
const ledgerAccountOfUser = (user: SQL) => sql`ledger_accounts la join accounts a on a.id = la.account_id where a.user_id = ${user}`;

type Page = { transactions: Transaction[]; nextCursor: string | null; fees?: FeeTotals };

/** `limit` rows at most and one more (which says whether a next page exists). */
function pageOf(rows: ActivityRow[], limit: number): Page {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    transactions: page.map(transactionOf),
    nextCursor: rows.length > limit && last ? encodeCursor({ micros: BigInt(last.micros), id: last.id }) : null,
  };
}

const dialect = new PgDialect();
const sessionStatements = new Map<string, PreparedStatement>();

/** The statements' parameters: $1 the user, $2 the access token's session family. */
const revokedSql = familyRevokedSql(sql.raw('$2'));
const ledgerAccountOfUserSql = ledgerAccountOfUser(sql.raw('$1'));

/**
 * GET /transactions' statement, prepared (server/db/prepared.ts): whether the access token's session was
 * revoked, the page's rows as one JSON text (cheaper to pass along than rows, and parsed on the HTTP
 * thread), and the version of the ledger account (its row's xmin: every transfer of the account writes
 * its balance columns, server/features/ledger/writes.ts). Parameters: $1 user, $2 session family, $3 now;
 * after a cursor $4 its time in microseconds, $5 its id; for the first page the fee totals' bounds
 * (feeTotalsBounds): $4 last month's start, $5 this month's, $6 this year's, $7 the next month's. One statement per page
 * size and cursor or none (the size is part of the plan).
 */
function sessionPageStatement(limit: number, withCursor: boolean): PreparedStatement {
  const name = `activity_page_${withCursor ? 'after' : 'first'}_${pageLimit(limit)}`;
  let statement = sessionStatements.get(name);
  if (!statement) {
    const rows = activityRows({
      account: sql.raw('(select id from acct)'),
      now: sql.raw('$3'),
      after: withCursor ? { micros: sql.raw('$4'), id: sql.raw('$5') } : null,
      limit,
    });
    const account = sql.raw('(select id from acct)');
    const fees = withCursor
      ? sql``
      : sql`, ${feesChargedSql(account, sql.raw('$4'), sql.raw('$5'))} as last_month_fees, ${feesChargedSql(account, sql.raw('$6'), sql.raw('$7'))} as year_fees`;
    const query = dialect.sqlToQuery(sql`with acct as materialized (select la.id, la.xmin::text as version from ${ledgerAccountOfUserSql})
      select ${revokedSql} as revoked, (select version from acct) as version,
        (select coalesce(json_agg(page order by page.occurred_at desc, page.id desc), '[]') from (${rows}) page)::text as rows${fees}`);
    // Every value is a placeholder above: a value bound into the text would be prepared once for everyone.
    if (query.params.length > 0) throw new Error(`${name}: values bound into a prepared statement's text`);
    const { sql: text } = query;
    const types = ['uuid', 'uuid', 'timestamptz', ...(withCursor ? ['bigint', 'uuid'] : ['timestamptz', 'timestamptz', 'timestamptz', 'timestamptz'])];
    statement = { name, text, types };
    sessionStatements.set(name, statement);
  }
  return statement;
}

/**
 * The months of the fee totals at `now` (US Eastern): the last month, and this year through this month
 * (as the statement of the month under way totals it); and when they change, the next month's start,
 * at which a kept first page is read again.
 */
function feeTotalsBounds(now: Date) {
  const thisMonth = usMonthOf(now);
  const lastMonth = previousMonth(thisMonth);
  const year = thisMonth.slice(0, 4);
  const changeAt = monthStart(nextMonth(thisMonth));
  const starts = [monthStart(lastMonth), monthStart(thisMonth), monthStart(`${year}-01`), changeAt].map((start) => start.toISOString());
  return { lastMonth, year, starts, changeAt: changeAt.toISOString() };
}

/** Whether the session was revoked, and the ledger account's version ($1 user, $2 session family). */
const versionStatement: PreparedStatement = {
  name: 'activity_version',
  text: dialect.sqlToQuery(sql`select ${revokedSql} as revoked, (select la.xmin::text from ${ledgerAccountOfUserSql}) as version`).sql,
  types: ['uuid', 'uuid'],
};

/**
 * First pages kept per cardholder and page size (server/db/keptAnswers.ts): the activity screen asks
 * for its first page on every visit and refresh, and home links to it. Later pages are read each time.
 */
const keptFirstPages = keptAnswers<Page>(2000);

/**
 * A page of the user's activity, in one round trip with the check that their session (the access
 * token's family) was not revoked: 'revoked' when it was. A first page kept since its ledger account
 * last changed, and before any hold it read times out, is given again after reading only that version
 * (or nothing, server/db/keptAnswers.ts).
 */
export async function loadActivityPageForSession(
  db: Database,
  request: { userId: string; familyId: string; cursor: ActivityCursor | null; limit: number; now: Date },
): Promise<Page | 'revoked'> {
  const { userId, familyId, cursor, limit, now } = request;
  const asked = answerRequest(db, familyId, now);
  const keptKey = cursor === null ? `${userId} ${limit}` : null;
  if (keptKey !== null) {
    const readCurrent = () => runPrepared<CurrentVersion>(db, versionStatement, [userId, familyId]).then(([current]) => current);
    const kept = await keptFirstPages.again(db, keptKey, asked, readCurrent);
    if (kept) return kept;
  }
  const statement = sessionPageStatement(limit + 1, cursor !== null);
  const feeMonths = cursor ? null : feeTotalsBounds(now);
  const values = [userId, familyId, now.toISOString(), ...(cursor ? [cursor.micros, cursor.id] : feeMonths!.starts)];
  type Answer = { revoked: boolean; version: string | null; rows: string; last_month_fees?: string | number; year_fees?: string | number };
  const [answer] = await runPrepared<Answer>(db, statement, values);
  if (!answer) throw new Error(`${statement.name} answered no row`);
  if (answer.revoked) return 'revoked';
  const rows = JSON.parse(answer.rows) as ActivityRow[];
  const page: Page = feeMonths
    ? {
        ...pageOf(rows, limit),
        fees: {
          lastMonth: feeMonths.lastMonth,
          lastMonthCents: Number(answer.last_month_fees),
          year: feeMonths.year,
          yearCents: Number(answer.year_fees),
        },
      }
    : pageOf(rows, limit);
  // A cardholder without a ledger account has no version to compare: nothing is kept.
  if (keptKey !== null && feeMonths && answer.version !== null) {
    // Every row read counts, the one past the page too: its hold timing out can end the next page.
    // The fee totals change months at the next month's start.
    const validUntil = firstTime([...rows.map((row) => (row.pending ? row.timeout_at : null)), feeMonths.changeAt]);
    keptFirstPages.keep(db, keptKey, asked, { answer: page, version: answer.version, validUntil });
  }
  return page;
}

/**
 * One transaction of the user's, or null when it is not theirs, not activity, or does not exist. A
 * completed hold also says when it was completed and how much was first held (TransactionDetail).
 */
export async function loadTransaction(db: Database, request: { userId: string; id: string; now: Date }): Promise<TransactionDetail | null> {
  const account = sql`(select la.id from ${ledgerAccountOfUser(sql`${request.userId}`)})`;
  const { rows } = (await db.execute(sql`select t.id, (extract(epoch from t.occurred_at) * 1000000)::bigint::text as micros,
      t.occurred_at, t.kind, t.counterparty, t.location, t.timeout_at,
      (case when t.credit_ledger_account_id = ${account} then 1 else -1 end) * coalesce(p.amount_cents, t.amount_cents) as amount,
      (t.phase = 'pending' and p.id is null) as pending,
      p.occurred_at as settled_at, case when p.id is not null then t.amount_cents end as held_cents
    from transfers t left join transfers p on p.pending_id = t.id
    where t.id = ${request.id}::uuid and ${account} in (t.debit_ledger_account_id, t.credit_ledger_account_id)
      and t.phase in ('posted', 'pending') and (p.id is null or p.phase = 'post_pending')
      and not (t.phase = 'pending' and p.id is null and coalesce(t.timeout_at <= ${request.now.toISOString()}::timestamptz, false))`)) as unknown as {
    rows: (ActivityRow & { settled_at: string | null; held_cents: string | number | null })[];
  };
  const [row] = rows;
  if (!row) return null;
  const transaction = transactionOf(row);
  return row.settled_at === null ? transaction : { ...transaction, settledAt: new Date(row.settled_at).toISOString(), heldAmount: Number(row.held_cents) };
}
