/**
 * A month's statement PDF (docs/architecture.md §11: 500 transfers ≤ 300 ms). The demo cardholder is
 * seeded on an in-memory PGlite, as `npm start` runs it, and given one month of exactly 500 posted
 * transfers through the ledger (before her seeded history, so no other transfer falls in it); then
 * GET /api/v1/statement for that month is timed through the real app (token check, the ledger query,
 * pdf-lib, the reply), alternating English and Spanish. First the PDF code and fonts are loaded ahead
 * as `npm start` does once it listens (prepareStatementPdf), timed apart; the first request after it
 * is reported apart too.
 *
 * Run alone: `node --import tsx scripts/bench/statements.ts`.
 */
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { buildApp } from '../../server/app.ts';
import { readConfig } from '../../server/config.ts';
import { openDatabase } from '../../server/db/database.ts';
import { accounts, users } from '../../server/db/schema/index.ts';
import { createTransfer, openCardholderLedgerAccount, systemLedgerAccounts } from '../../server/features/ledger/index.ts';
import { prepareStatementPdf } from '../../server/features/statements/index.ts';
import { demoCardholder, seedDemoData } from '../../server/seed.ts';

export type StatementPdfTimings = {
  transfers: number;
  runs: number;
  /** prepareStatementPdf: the PDF code and fonts loaded. */
  preparedMs: number;
  /** The first request, after that. */
  firstMs: number;
  medianMs: number;
  p95Ms: number;
  maxMs: number;
  kilobytes: number;
};

const transferCount = 500;
const runs = 20;

/**
 * 'YYYY-MM' of the month `monthsBack` months before now, and noon (UTC) on its first day: inside the
 * month in US Eastern time too, which a statement's months are.
 */
function monthBefore(monthsBack: number): { month: string; start: Date } {
  const now = new Date();
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - monthsBack, 1, 12));
  return { month: start.toISOString().slice(0, 7), start };
}

export async function measureStatementPdf(): Promise<StatementPdfTimings> {
  const database = await openDatabase({});
  try {
    await seedDemoData(database.db);
    const [account] = await database.db
      .select({ id: accounts.id })
      .from(accounts)
      .innerJoin(users, eq(users.id, accounts.userId))
      .where(eq(users.email, demoCardholder.email));
    const cardholder = await openCardholderLedgerAccount(database.db, account!.id);
    // Her seeded history covers the last ~4 months: a month 7 back holds only these.
    const { month, start } = monthBefore(7);
    for (let index = 0; index < transferCount; index += 1) {
      const credit = index % 25 === 0;
      const answer = await createTransfer(database.db, {
        id: crypto.randomUUID(),
        debit: credit ? systemLedgerAccounts.settlement : cardholder,
        credit: credit ? cardholder : systemLedgerAccounts.settlement,
        amountCents: credit ? 61240 : 500 + (index % 40) * 37,
        kind: credit ? 'deposit' : 'purchase',
        counterparty: credit ? 'Sunrise Home Care' : ['Save Mart', 'Dollar General', 'Walgreens', 'Food 4 Less', 'Chevron'][index % 5]!,
        location: credit ? null : 'Fresno, CA',
        phase: 'posted',
        // Spread over the month's first 27 days.
        occurredAt: new Date(start.getTime() + (index % 27) * 86_400_000 + index * 1000),
      });
      if (answer.result !== 'created') throw new Error(`bench transfer ${index}: ${answer.result}`);
    }
    await database.gatherStatistics();

    const app = await buildApp(readConfig({ ...process.env, WEB_ROOT: '' }), database.db, { logger: false });
    try {
      const signIn = await app.inject({ method: 'POST', url: '/api/v1/sign-in', payload: { email: demoCardholder.email, password: demoCardholder.password } });
      const { access } = signIn.json<{ access: string }>();
      const timed = async (locale: 'en' | 'es') => {
        const started = performance.now();
        const response = await app.inject({
          method: 'GET',
          url: `/api/v1/statement?month=${month}&locale=${locale}`,
          headers: { authorization: `Bearer ${access}` },
        });
        const ms = performance.now() - started;
        if (response.statusCode !== 200) throw new Error(`GET /statement answered ${response.statusCode}: ${response.body}`);
        return { ms, bytes: response.rawPayload.byteLength };
      };
      const preparing = performance.now();
      await prepareStatementPdf();
      const preparedMs = performance.now() - preparing;
      const first = await timed('en');
      const times: number[] = [];
      for (let run = 0; run < runs; run += 1) times.push((await timed(run % 2 === 0 ? 'es' : 'en')).ms);
      times.sort((a, b) => a - b);
      const at = (quantile: number) => times[Math.min(times.length - 1, Math.ceil(quantile * times.length) - 1)]!;
      return {
        transfers: transferCount,
        runs,
        preparedMs,
        firstMs: first.ms,
        medianMs: at(0.5),
        p95Ms: at(0.95),
        maxMs: times.at(-1)!,
        kilobytes: first.bytes / 1024,
      };
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const timings = await measureStatementPdf();
  console.log(JSON.stringify(timings, null, 2));
}
