/**
 * Ledger test set-up: a migrated database with no app around it (in-memory PGlite, or a database of
 * its own on the run's PostgreSQL), card accounts to open cardholder ledger accounts for, and a fixed
 * clock (nothing in these tests reads the wall clock).
 */
import { randomUUID } from 'node:crypto';
import { openDatabase, type Database, type OpenDatabase } from '../../../server/db/database.ts';
import { accounts, users } from '../../../server/db/schema/index.ts';
import { openCardholderLedgerAccount } from '../../../server/features/ledger/index.ts';
import { expect } from 'vitest';
import { migratedSnapshot, openTestPGlite } from '../../support/pgliteSnapshot.ts';
import { testDatabase } from '../../support/postgresDatabases.ts';

export type LedgerDatabase = { db: Database; kind: OpenDatabase['kind']; close: () => Promise<void> };

/** A migrated, empty in-memory PGlite (the ledger's system accounts come with the migration). */
export async function pgliteLedgerDatabase(): Promise<LedgerDatabase> {
  const database = await openTestPGlite({ snapshot: await migratedSnapshot() });
  return { db: database.db, kind: database.kind, close: database.close };
}

/** A migrated, empty database of its own on the run's PostgreSQL (a pool of up to 10 connections). */
export async function postgresLedgerDatabase(): Promise<LedgerDatabase> {
  const copy = await testDatabase();
  const database = await openDatabase({ databaseUrl: copy.url });
  return {
    db: database.db,
    kind: database.kind,
    close: async () => {
      await database.close();
      await copy.drop();
    },
  };
}

/** Every database the run has: PGlite always, PostgreSQL unless PG_TESTS=0 left it out. */
export const ledgerDatabases: { kind: OpenDatabase['kind']; open: () => Promise<LedgerDatabase> }[] = [
  { kind: 'pglite', open: pgliteLedgerDatabase },
  ...(process.env.PG_TESTS === '0' ? [] : [{ kind: 'postgres' as const, open: postgresLedgerDatabase }]),
];

/** A new user with a card account, and the account's cardholder ledger account (its id). */
export async function newCardholder(db: Database): Promise<string> {
  return (await newCardholderUser(db)).ledgerAccountId;
}

/** A new user (Ana Ruiz) with a card account and its cardholder ledger account: the user's id and the ledger account's. */
export async function newCardholderUser(db: Database): Promise<{ userId: string; ledgerAccountId: string }> {
  const n = randomUUID();
  const [user] = await db
    .insert(users)
    .values({
      email: `ledger.${n}@example.com`,
      firstName: 'Ana',
      lastName: 'Ruiz',
      phone: n,
      street1: '1 Main St',
      city: 'Fresno',
      state: 'CA',
      zip: '93721',
    })
    .returning({ id: users.id });
  const [account] = await db.insert(accounts).values({ userId: user!.id, prn: n }).returning({ id: accounts.id });
  return { userId: user!.id, ledgerAccountId: await openCardholderLedgerAccount(db, account!.id) };
}

/** The tests' clock: `at(0)` is a fixed moment, `at(s)` s seconds after it. */
const start = Date.parse('2026-03-02T15:00:00.000Z');
export const at = (seconds: number) => new Date(start + seconds * 1000);

/** A ledger write that must be created (not refused, not an existing transfer): its answer. */
export async function created<T extends { result: string }>(answer: Promise<T>): Promise<Extract<T, { result: 'created' }>> {
  const done = await answer;
  expect(done.result).toBe('created');
  return done as Extract<T, { result: 'created' }>;
}
