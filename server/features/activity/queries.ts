/**
 * Activity as a cardholder sees it (contract/activity/types.ts), read from the ledger's transfers of
 * their ledger account: posted transfers, and holds with their status. A hold that was posted shows
 * the amount posted, at the place and time of the hold (so a page never reorders); a voided hold, or
 * one past its timeout that no write has recorded yet, moved no money and is not activity (the
 * ledger's balances leave it out the same way). Pages are keyset pages on (occurred_at, id), newest
 * first, read from the two indexes of the account's debits and credits and merged.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Transaction, TransactionKind } from '../../../contract/activity/types.ts';
import { uuidPattern } from '../../../contract/rules.ts';
import type { Database } from '../../db/database.ts';

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

type ActivityRow = {
  id: string;
  micros: string;
  occurred_at: string;
  kind: TransactionKind;
  counterparty: string | null;
  location: string | null;
  amount: string;
  pending: boolean;
  timeout_at: string | null;
};

/** One side's transfers of the account that are activity at `now`, newest first, after the cursor. */
function side(column: SQL, ledgerAccountId: SQL, cursor: ActivityCursor | null, limit: number, now: Date): SQL {
  const after = cursor
    ? sql`and (t.occurred_at, t.id) < (timestamptz 'epoch' + ${cursor.micros.toString()}::bigint * interval '1 microsecond', ${cursor.id}::uuid)`
    : sql``;
  return sql`(select t.* from transfers t
    where ${column} = ${ledgerAccountId} and t.phase in ('posted', 'pending') ${after}
      and not exists (select 1 from transfers v where v.pending_id = t.id and v.phase = 'void_pending')
      and not (t.phase = 'pending' and t.timeout_at <= ${now.toISOString()}::timestamptz
               and not exists (select 1 from transfers r where r.pending_id = t.id))
    order by t.occurred_at desc, t.id desc limit ${limit})`;
}

/**
 * The account's activity rows as SQL (so GET /home can read them inside its one statement): at most
 * `limit`, newest first, after `cursor`. `ledgerAccountId` is an SQL expression for the account's id.
 */
export function activityRowsSql(ledgerAccountId: SQL, options: { cursor: ActivityCursor | null; limit: number; now: Date }): SQL {
  const { cursor, limit, now } = options;
  return sql`select t.id, (extract(epoch from t.occurred_at) * 1000000)::bigint::text as micros, t.occurred_at, t.kind,
      t.counterparty, t.location, t.timeout_at,
      (case when t.credit_ledger_account_id = ${ledgerAccountId} then 1 else -1 end) * coalesce(p.amount_cents, t.amount_cents) as amount,
      (t.phase = 'pending' and p.id is null) as pending
    from (${side(sql`t.debit_ledger_account_id`, ledgerAccountId, cursor, limit, now)}
          union all ${side(sql`t.credit_ledger_account_id`, ledgerAccountId, cursor, limit, now)}) t
    left join transfers p on p.pending_id = t.id and p.phase = 'post_pending'
    order by t.occurred_at desc, t.id desc limit ${limit}`;
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

/** The cardholder's ledger account id as SQL, from their user id (null when they have none yet). */
const ledgerAccountOfUser = (userId: string) =>
  sql`(select la.id from ledger_accounts la join accounts a on a.id = la.account_id where a.user_id = ${userId})`;

/** A page of the user's activity; `nextCursor` is null on the last page. */
export async function loadActivityPage(
  db: Database,
  request: { userId: string; cursor: ActivityCursor | null; limit: number; now: Date },
): Promise<{ transactions: Transaction[]; nextCursor: string | null }> {
  const { rows } = (await db.execute(
    activityRowsSql(ledgerAccountOfUser(request.userId), { cursor: request.cursor, limit: request.limit + 1, now: request.now }),
  )) as unknown as { rows: ActivityRow[] };
  const page = rows.slice(0, request.limit);
  const last = page.at(-1);
  return {
    transactions: page.map(transactionOf),
    nextCursor: rows.length > request.limit && last ? encodeCursor({ micros: BigInt(last.micros), id: last.id }) : null,
  };
}

/** One transaction of the user's, or null when it is not theirs, not activity, or does not exist. */
export async function loadTransaction(db: Database, request: { userId: string; id: string; now: Date }): Promise<Transaction | null> {
  const account = ledgerAccountOfUser(request.userId);
  const { rows } = (await db.execute(sql`select t.id, (extract(epoch from t.occurred_at) * 1000000)::bigint::text as micros,
      t.occurred_at, t.kind, t.counterparty, t.location, t.timeout_at,
      (case when t.credit_ledger_account_id = ${account} then 1 else -1 end) * coalesce(p.amount_cents, t.amount_cents) as amount,
      (t.phase = 'pending' and p.id is null) as pending
    from transfers t left join transfers p on p.pending_id = t.id
    where t.id = ${request.id}::uuid and ${account} in (t.debit_ledger_account_id, t.credit_ledger_account_id)
      and t.phase in ('posted', 'pending') and (p.id is null or p.phase = 'post_pending')
      and not (t.phase = 'pending' and p.id is null and t.timeout_at <= ${request.now.toISOString()}::timestamptz)`)) as unknown as {
    rows: ActivityRow[];
  };
  return rows[0] ? transactionOf(rows[0]) : null;
}
