/**
 * Ledger throughput (docs/architecture.md §11: ≥ 1,000 posted transfers/s on PostgreSQL with the
 * invariant report clean, beside a bare-INSERT ratio). On a migrated, empty database at `databaseUrl`
 * (a throwaway PostgreSQL the bench starts): cardholders are opened and each given a first deposit,
 * then a pool of workers posts transfers through the ledger service (createTransfer, as every money
 * feature does: locks, balance check, insert, balance columns), deposits and purchases mixed; then
 * invariantReport must be ok. In the same run, the same workers insert the same number of rows, one
 * autocommitted INSERT each, into a plain table with no constraints beyond its primary key: what the
 * database and the client cost at least per row, so the ratio tells the ledger's own share.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../../server/db/database.ts';
import { accounts, users } from '../../server/db/schema/index.ts';
import { createTransfer, invariantReport, type InvariantReport, openCardholderLedgerAccount, systemLedgerAccounts } from '../../server/features/ledger/index.ts';

export type LedgerShape = { cardholders: number; transfers: number; workers: number };
export const ledgerShape: LedgerShape = { cardholders: 1000, transfers: 10_000, workers: 10 };

export type LedgerThroughput = {
  /** Transfers the service created (posted), per second of the timed part. */
  transfersPerSec: number;
  created: number;
  /** Purchases refused (exceeds_credits): the service answered, nothing was posted. */
  refused: number;
  seconds: number;
  /** Rows per second of the bare INSERT loop, same workers, same pool. */
  bareInsertsPerSec: number;
  report: InvariantReport;
  reportMs: number;
};

/** Runs `count` jobs over `workers` concurrent loops; resolves when all are done. */
async function pool(count: number, workers: number, job: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      for (let index = next++; index < count; index = next++) await job(index);
    }),
  );
}

/** A fixed pseudo-random sequence (mulberry32), so every run posts the same mix. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` users with a card account each, and their cardholder ledger accounts (ids). */
async function openCardholders(db: Database, count: number): Promise<string[]> {
  const rows = Array.from({ length: count }, (_, i) => ({ n: i, tag: randomUUID() }));
  const made = await db
    .insert(users)
    .values(
      rows.map(({ tag }) => ({
        email: `bench.${tag}@example.com`,
        firstName: 'Ana',
        lastName: 'Ruiz',
        phone: tag,
        street1: '1 Main St',
        city: 'Fresno',
        state: 'CA',
        zip: '93721',
      })),
    )
    .returning({ id: users.id });
  const cardAccounts = await db
    .insert(accounts)
    .values(made.map((user, i) => ({ userId: user.id, prn: rows[i]!.tag })))
    .returning({ id: accounts.id });
  const ids: string[] = [];
  for (const account of cardAccounts) ids.push(await openCardholderLedgerAccount(db, account.id));
  return ids;
}

export async function measureLedgerThroughput(databaseUrl: string, shape: LedgerShape = ledgerShape): Promise<LedgerThroughput> {
  const database = await openDatabase({ databaseUrl });
  const { db } = database;
  try {
    const cardholders = await openCardholders(db, shape.cardholders);
    const { settlement } = systemLedgerAccounts;
    // Everyone starts with money, so that purchases are mostly covered (not timed).
    await pool(cardholders.length, shape.workers, async (i) => {
      await createTransfer(db, { id: randomUUID(), debit: settlement, credit: cardholders[i]!, amountCents: 50_000, kind: 'deposit', phase: 'posted' });
    });
    const next = random(20261124);
    const requests = Array.from({ length: shape.transfers }, () => {
      const cardholder = cardholders[Math.floor(next() * cardholders.length)]!;
      const deposit = next() < 0.5;
      return deposit
        ? { debit: settlement, credit: cardholder, amountCents: 1000 + Math.floor(next() * 4000), kind: 'deposit' as const, counterparty: 'Sunrise Home Care' }
        : { debit: cardholder, credit: settlement, amountCents: 100 + Math.floor(next() * 4000), kind: 'purchase' as const, counterparty: 'Save Mart' };
    });
    let created = 0;
    let refused = 0;
    const started = performance.now();
    await pool(requests.length, shape.workers, async (i) => {
      const answer = await createTransfer(db, { id: randomUUID(), ...requests[i]!, phase: 'posted' });
      if (answer.result === 'created') created += 1;
      else if (answer.result === 'exceeds_credits') refused += 1;
      else throw new Error(`ledger bench: transfer ${i} answered ${answer.result}`);
    });
    const seconds = (performance.now() - started) / 1000;

    const reportStarted = performance.now();
    const report = await invariantReport(db);
    const reportMs = performance.now() - reportStarted;

    await db.execute(sql`create table bench_bare_inserts (id uuid primary key, debit uuid not null, credit uuid not null, amount_cents bigint not null, occurred_at timestamptz not null)`);
    const bareStarted = performance.now();
    await pool(requests.length, shape.workers, async (i) => {
      const { debit, credit, amountCents } = requests[i]!;
      await db.execute(sql`insert into bench_bare_inserts values (${randomUUID()}, ${debit}, ${credit}, ${amountCents}, now())`);
    });
    const bareSeconds = (performance.now() - bareStarted) / 1000;

    return { transfersPerSec: created / seconds, created, refused, seconds, bareInsertsPerSec: requests.length / bareSeconds, report, reportMs };
  } finally {
    await database.close();
  }
}
