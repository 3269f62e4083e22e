/**
 * How every ledger write runs, so each keeps the same guarantees: one database transaction (a
 * savepoint inside the caller's), its cardholder accounts locked with SELECT … FOR UPDATE in id order
 * (two writes never wait on each other in a circle), the debit account's expired holds released before
 * its balance is checked, a transfer id that exists answered as a retry (whichever of identical
 * requests arriving together takes the locks first creates the transfer; the others find it), and the
 * balance columns written in the same statement as the transfer that moves them.
 *
 * System accounts (settlement, fee revenue, …) have no floor and keep no balance columns: their
 * balances are the sums of their transfers, read when asked (balances(), invariantReport()). So a
 * write does not lock or update them, and the settlement account, in nearly every transfer, is not a
 * row every write waits for. A write between two system accounts, with no cardholder to lock, locks
 * those two instead, so that its checks (a hold resolved once, a transfer reversed once) still run
 * one at a time.
 *
 * A posted transfer is four round trips: BEGIN, the locks, the insert with its balance columns, COMMIT.
 */
import { and, eq, lte, notExists, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/database.ts';
import { statementRows } from '../../db/prepared.ts';
import { ledgerAccounts, transfers } from '../../db/schema/index.ts';
import { sqlStateOf } from '../../shared/errorLog.ts';
import { expiryTransferId, isSystemLedgerAccount, systemLedgerAccounts } from './ids.ts';

export type LedgerAccount = typeof ledgerAccounts.$inferSelect;
export type Transfer = typeof transfers.$inferSelect;
type TransferRow = typeof transfers.$inferInsert & { amountCents: number };

/** A retry of a transfer id already used: the same request (its first transfer) or another one. */
export type Existing = { result: 'exists'; transfer: Transfer } | { result: 'exists_with_different_fields' };

/** The accounts of one write: its cardholder accounts locked, as the write changes them. */
export type Ledger = {
  tx: Database;
  /**
   * The write's clock: the caller's `now`, else the time the write got its locks. A transfer timed
   * before its wait for them could commit after a month's end into the month that ended, and change a
   * statement already read (docs/decisions.md "Statements").
   */
  now: Date;
  /** Whether the write may use the account: a system account, or a cardholder's that it holds locked. */
  has: (id: string) => boolean;
  /** A cardholder's account, locked (undefined for a system account, which keeps no balance columns, or an unknown id). */
  account: (id: string) => LedgerAccount | undefined;
  /** Whether debiting `amountCents` keeps the account within its floor (always, for an account without one). */
  canDebit: (id: string, amountCents: number) => boolean;
  /** Inserts a transfer and moves the cardholder balances it moves (`pendingCents`: the whole amount of the pending a post or void resolves). */
  record: (row: TransferRow, pendingCents?: number) => Promise<Transfer>;
  /** Changes a cardholder account's cushion, written with its balances at the end. */
  setCushion: (id: string, cushionCents: number) => void;
};

/** Credits posted − debits posted − debits pending + cushion: what the account may still spend. */
export function availableCents(account: LedgerAccount): number {
  return account.creditsPosted - account.debitsPosted - account.debitsPending + account.cushionCents;
}

const resolutions = alias(transfers, 'resolution');

/** Pending transfers not yet posted or voided whose timeout has passed (of one debit account, or all): a condition on `transfers`. */
function expired(db: Database, now: Date, debitId: string | undefined) {
  return and(
    eq(transfers.phase, 'pending'),
    debitId === undefined ? undefined : eq(transfers.debitLedgerAccountId, debitId),
    lte(transfers.timeoutAt, now),
    notExists(db.select({ one: sql`1` }).from(resolutions).where(eq(resolutions.pendingId, transfers.id))),
  );
}

/** Pending transfers not yet posted or voided whose timeout has passed: of one debit account, or the first `limit` of all. */
export function expiredHolds(db: Database, now: Date, which: { debitId: string } | { limit: number }) {
  const debitId = 'debitId' in which ? which.debitId : undefined;
  const holds = db.select().from(transfers).where(expired(db, now, debitId)).orderBy(transfers.timeoutAt, transfers.id);
  return 'limit' in which ? holds.limit(which.limit) : holds;
}

/** The void that records a hold's expiry: deterministic in every field, so it reads the same whoever writes it. */
export function expiryOf(pending: Transfer): TransferRow {
  return {
    id: expiryTransferId(pending.id),
    debitLedgerAccountId: pending.debitLedgerAccountId,
    creditLedgerAccountId: pending.creditLedgerAccountId,
    amountCents: pending.amountCents,
    phase: 'void_pending',
    pendingId: pending.id,
    kind: pending.kind,
    counterparty: pending.counterparty,
    location: pending.location,
    occurredAt: pending.timeoutAt!,
  };
}

/*
 * The statements every write makes (its locks, the insert, a transfer id's lookup) are written in SQL
 * and their rows mapped here: building them with Drizzle's query builder took about half a millisecond
 * of the Node thread per transfer on the 2-core bench machine, as long as the database took to run them.
 * On PostgreSQL they run as named statements (statementRows), so each connection plans them once.
 */

/** A transfer's columns under their TypeScript names, for `rows` to map with transferOf. */
const transferColumns = sql.raw(
  'id, debit_ledger_account_id as "debitLedgerAccountId", credit_ledger_account_id as "creditLedgerAccountId", amount_cents as "amountCents", ' +
    'phase, pending_id as "pendingId", timeout_at as "timeoutAt", kind, counterparty, location, reverses_id as "reversesId", ' +
    'occurred_at as "occurredAt", created_at as "createdAt"',
);

const dateOf = (value: unknown): Date => (value instanceof Date ? value : new Date(value as string));

/** A row selected with transferColumns, as Drizzle would map it (cents as numbers, times as Dates). */
function transferOf(row: Record<string, unknown>): Transfer {
  const transfer = row as Transfer;
  return {
    ...transfer,
    amountCents: Number(row.amountCents),
    timeoutAt: row.timeoutAt === null ? null : dateOf(row.timeoutAt),
    occurredAt: dateOf(row.occurredAt),
    createdAt: dateOf(row.createdAt),
  };
}

export async function findTransfer(db: Database, id: string): Promise<Transfer | undefined> {
  const [row] = await statementRows(db, sql`select ${transferColumns} from transfers where id = ${id}`);
  return row && transferOf(row);
}

/** The answer to a transfer id already used, or null when it is new. */
export async function existingAnswer(db: Database, id: string, matches: (transfer: Transfer) => boolean): Promise<Existing | null> {
  const transfer = await findTransfer(db, id);
  if (!transfer) return null;
  return matches(transfer) ? { result: 'exists', transfer } : { result: 'exists_with_different_fields' };
}

/** What a transfer does to the balance columns of its cardholder accounts (system accounts keep none). */
function applyTransfer(accounts: Map<string, LedgerAccount>, transfer: TransferRow, pendingCents: number): void {
  const debit = accounts.get(transfer.debitLedgerAccountId);
  const credit = accounts.get(transfer.creditLedgerAccountId);
  const amount = transfer.amountCents;
  const move = (account: LedgerAccount | undefined, change: (account: LedgerAccount) => void) => {
    if (account) change(account);
  };
  if (transfer.phase === 'pending') {
    move(debit, (a) => (a.debitsPending += amount));
    move(credit, (a) => (a.creditsPending += amount));
    return;
  }
  if (transfer.phase === 'post_pending' || transfer.phase === 'void_pending') {
    // The whole hold is released; a post then moves what it posts (a partial post gives the rest back).
    move(debit, (a) => (a.debitsPending -= pendingCents));
    move(credit, (a) => (a.creditsPending -= pendingCents));
    if (transfer.phase === 'void_pending') return;
  }
  move(debit, (a) => (a.debitsPosted += amount));
  move(credit, (a) => (a.creditsPosted += amount));
  for (const account of [debit, credit]) if (account) mustStayExact(account);
}

/**
 * Balances are JavaScript numbers of cents, exact only up to 2^53 − 1 (about $90 trillion). A
 * transfer that would take a balance column past that throws, so the write is rolled back whole,
 * instead of a rounded balance creating or losing cents (TigerBeetle refuses such transfers as
 * overflows). No cardholder gets near it: each sandbox event moves at most $100,000.
 */
function mustStayExact(account: LedgerAccount): void {
  const { debitsPending, debitsPosted, creditsPending, creditsPosted } = account;
  if (![debitsPending, debitsPosted, creditsPending, creditsPosted].every(Number.isSafeInteger)) {
    throw new RangeError(`A transfer would take ledger account ${account.id} past 2^53 − 1 cents`);
  }
}

/**
 * Runs `write` in one transaction (a savepoint inside the caller's) over the given accounts, the
 * cardholder ones locked in id order (the system ones only when there is no cardholder among them).
 * `releaseHoldsOf`, an account the write may debit, has its expired holds voided first when it has a
 * floor (their cardholder counterparts are locked too, in the same ordered statement). Each transfer
 * recorded writes its accounts' balance columns with it; a cushion changed is written at the end.
 * Released holds stay released when the write then refuses.
 */
export async function lockedWrite<R>(
  db: Database,
  request: { accountIds: string[]; releaseHoldsOf?: string; now?: Date },
  write: (ledger: Ledger) => Promise<R>,
): Promise<R> {
  const { releaseHoldsOf } = request;
  return db.transaction(async (tx) => {
    const releaseBy = request.now ?? new Date();
    const locked = await lockAccounts(tx, request.accountIds, releaseHoldsOf === undefined ? undefined : { debitId: releaseHoldsOf, now: releaseBy });
    const now = request.now ?? new Date();
    // Accounts whose columns changed since they were last written (a cushion; a record writes its own).
    const changed = new Set<string>();
    const ledger: Ledger = {
      tx,
      now,
      has: (accountId) => isSystemLedgerAccount(accountId) || locked.has(accountId),
      account: (accountId) => locked.get(accountId),
      canDebit: (accountId, amountCents) => {
        const account = locked.get(accountId);
        return !account?.debitsMustNotExceedCredits || availableCents(account) >= amountCents;
      },
      record: async (row, pendingCents = 0) => {
        applyTransfer(locked, row, pendingCents);
        const moved = [row.debitLedgerAccountId, row.creditLedgerAccountId].filter((accountId) => locked.has(accountId));
        for (const accountId of moved) changed.delete(accountId);
        return insertAndMove(tx, row, moved.map((accountId) => locked.get(accountId)!));
      },
      setCushion: (accountId, cushionCents) => {
        locked.get(accountId)!.cushionCents = cushionCents;
        changed.add(accountId);
      },
    };
    if (releaseHoldsOf) await releaseExpiredHolds(ledger, releaseHoldsOf);
    const result = await write(ledger);
    for (const accountId of changed) await tx.update(ledgerAccounts).set(columnsOf(locked.get(accountId)!)).where(eq(ledgerAccounts.id, accountId));
    return result;
  });
}

const columnsOf = ({ debitsPending, debitsPosted, creditsPending, creditsPosted, cushionCents }: LedgerAccount) => ({
  debitsPending,
  debitsPosted,
  creditsPending,
  creditsPosted,
  cushionCents,
});

/**
 * Inserts a transfer and writes the balance columns of the accounts it moves (as the write holds them,
 * all their columns at once, so the floor CHECK sees each account's state after the transfer), in one
 * statement: one round trip.
 */
async function insertAndMove(tx: Database, row: TransferRow, moved: LedgerAccount[]): Promise<Transfer> {
  const time = (date: Date | null | undefined) => (date ? date.toISOString() : null);
  const updates = moved.map(
    (account, i) => sql`, ${sql.raw(`moved_${i}`)} as (update ledger_accounts set debits_pending = ${account.debitsPending},
      debits_posted = ${account.debitsPosted}, credits_pending = ${account.creditsPending}, credits_posted = ${account.creditsPosted},
      cushion_cents = ${account.cushionCents} where id = ${account.id})`,
  );
  const [inserted] = await statementRows(
    tx,
    sql`with inserted as (insert into transfers (id, debit_ledger_account_id, credit_ledger_account_id, amount_cents, phase, pending_id,
        timeout_at, kind, counterparty, location, reverses_id, occurred_at)
      values (${row.id}, ${row.debitLedgerAccountId}, ${row.creditLedgerAccountId}, ${row.amountCents}, ${row.phase}, ${row.pendingId ?? null},
        ${time(row.timeoutAt)}::timestamptz, ${row.kind}, ${row.counterparty ?? null}, ${row.location ?? null}, ${row.reversesId ?? null},
        ${time(row.occurredAt)}::timestamptz)
      returning *)${sql.join(updates)}
    select ${transferColumns} from inserted`,
  );
  return transferOf(inserted!);
}

/**
 * A lockedWrite that creates transfer `id`: when that id exists already, the answer is its Existing
 * and no money moves again. Under the locks, the write runs first: when it would create the transfer,
 * its insert meets the earlier one at the primary key (23505), the transaction (or savepoint) is rolled
 * back and the existing transfer answered; when it refuses, the id is looked up, still under the
 * locks, and an existing transfer answered instead of the refusal (what the write recorded on the way,
 * the expiry of holds past their timeout, stays: any write would record the same). So of identical
 * requests arriving together the first creates it and the others find it, a retry is answered as one
 * even when it would now be refused, and a new transfer costs no lookup of its id.
 */
export async function ledgerWrite<R extends { result: string }>(
  db: Database,
  request: { id: string; accountIds: string[]; releaseHoldsOf?: string; now?: Date; matches: (transfer: Transfer) => boolean },
  write: (ledger: Ledger) => Promise<R>,
): Promise<R | Existing> {
  const { id, matches } = request;
  try {
    return await lockedWrite(db, request, async (ledger) => {
      const answer = await write(ledger);
      return answer.result === 'created' ? answer : ((await existingAnswer(ledger.tx, id, matches)) ?? answer);
    });
  } catch (error) {
    // A retry of a transfer that exists (under the same locks, or, sent with other accounts, at the
    // same moment: the insert that came second waited for the first to commit): the insert broke the
    // primary key. Answer as for a retry.
    if (sqlStateOf(error) !== '23505') throw error;
    const existing = await existingAnswer(db, id, matches);
    if (!existing) throw error;
    return existing;
  }
}

/**
 * SELECT … FOR UPDATE of the write's cardholder accounts, in id order: the order every ledger write
 * takes its locks in. With `releaseHoldsOf`, the cardholder counterparts of that account's expired
 * holds are locked in the same statement (a system account has no floor, so its holds are not
 * released before a write on it). A hold that expires after the statement began is left for the next
 * write or the sweep: until then it still counts against the balance, which errs on the safe side. A
 * write between system accounts only locks those (it waits for no cardholder write, nor they for it).
 * Answers the cardholder accounts it locked.
 */
async function lockAccounts(tx: Database, ids: string[], releaseHoldsOf?: { debitId: string; now: Date }): Promise<Map<string, LedgerAccount>> {
  const unique = [...new Set(ids)];
  const cardholders = unique.filter((id) => !isSystemLedgerAccount(id));
  const { debitId, now } = releaseHoldsOf ?? {};
  const named = sql`array[${sql.join(
    (cardholders.length > 0 ? cardholders : unique).map((id) => sql`${id}`),
    sql`, `,
  )}]::uuid[]`;
  // An array, not an OR of two conditions: the planner then looks each id up in the primary key.
  const lockIds =
    debitId === undefined || isSystemLedgerAccount(debitId)
      ? named
      : sql`${named} || array(select h.credit_ledger_account_id from transfers h
          where h.phase = 'pending' and h.debit_ledger_account_id = ${debitId} and h.timeout_at <= ${now!.toISOString()}::timestamptz
            and h.credit_ledger_account_id not in ${Object.values(systemLedgerAccounts)}
            and not exists (select 1 from transfers r where r.pending_id = h.id))`;
  const rows = await statementRows(
    tx,
    sql`select id, kind, account_id as "accountId", debits_pending as "debitsPending", debits_posted as "debitsPosted",
        credits_pending as "creditsPending", credits_posted as "creditsPosted", cushion_cents as "cushionCents",
        debits_must_not_exceed_credits as "debitsMustNotExceedCredits", created_at as "createdAt"
      from ledger_accounts where id = any(${lockIds})
      order by id for update`,
  );
  const accounts = new Map<string, LedgerAccount>();
  for (const row of rows) {
    if (isSystemLedgerAccount(row.id as string)) continue;
    const account = row as LedgerAccount;
    accounts.set(account.id, {
      ...account,
      debitsPending: Number(row.debitsPending),
      debitsPosted: Number(row.debitsPosted),
      creditsPending: Number(row.creditsPending),
      creditsPosted: Number(row.creditsPosted),
      cushionCents: Number(row.cushionCents),
      createdAt: dateOf(row.createdAt),
    });
  }
  return accounts;
}

/** Voids the debit account's expired holds (under the locks), so its balance check counts only live ones. */
async function releaseExpiredHolds(ledger: Ledger, debitId: string): Promise<void> {
  const account = ledger.account(debitId);
  // No pending debits (exact, under the lock): no hold to release, nothing to read.
  if (!account?.debitsMustNotExceedCredits || account.debitsPending === 0) return;
  for (const hold of await expiredHolds(ledger.tx, ledger.now, { debitId })) {
    if (ledger.has(hold.creditLedgerAccountId)) await ledger.record(expiryOf(hold), hold.amountCents);
  }
}
