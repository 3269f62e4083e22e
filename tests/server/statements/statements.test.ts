/**
 * GET /statements and GET /statement read the ledger month by month: every month from the one the
 * account opened through the current one, balances that chain (opening + credits − debits = closing,
 * the last closing the ledger's posted balance), totals that match the activity list, and a month's
 * PDF whose text says the closing balance, the masked account number and the partner bank, in
 * English or Spanish. (A closed month that never changes: closedMonths.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transaction, TransactionsPage } from '../../../contract/activity/types.ts';
import type { HomeAnswer } from '../../../contract/home/types.ts';
import { partnerBank, partnerBankAddress } from '../../../contract/shared/partnerBank.ts';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import type { Statement, StatementsAnswer } from '../../../contract/statements/types.ts';
import { demoHold, mfaCardholder } from '../../../server/seed.ts';
import { formatMonth } from '../../../src/shared/format/date.ts';
import { pdfInfo, pdfPages, pdfText } from '../../support/pdfText.ts';
import { bearer, getHome, signIn, startTestApp, type TestApp } from '../helpers.ts';

let t: TestApp;
let access: string;

beforeAll(async () => {
  t = await startTestApp({ env: { SANDBOX: 'true' } });
  ({ access } = await signIn(t.app));
});
afterAll(async () => {
  await t?.close();
});

/** The month of an instant in New York, 'YYYY-MM': a statement's month. */
const easternMonth = (time: string | number | Date) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York', year: 'numeric', month: '2-digit' }).format(new Date(time));
const dollars = (cents: number) =>
  `${cents < 0 ? '-' : ''}$${Math.floor(Math.abs(cents) / 100).toLocaleString('en-US')}.${String(Math.abs(cents) % 100).padStart(2, '0')}`;

const statements = async (token = access) => {
  const response = await t.app.inject({ method: 'GET', url: '/api/v1/statements', headers: bearer(token) });
  return { status: response.statusCode, body: response.json<StatementsAnswer>() };
};
const statementPdf = async (query: string, token: string | null = access) => {
  const response = await t.app.inject({ method: 'GET', url: `/api/v1/statement${query}`, headers: token ? bearer(token) : {} });
  return { status: response.statusCode, headers: response.headers, bytes: new Uint8Array(response.rawPayload), response };
};
const home = async (token = access) => (await getHome(t.app, token)).json<HomeAnswer>();
const event = async (body: object) => {
  const response = await t.app.inject({ method: 'POST', url: '/sandbox/events', payload: body });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ transactionId: string }>().transactionId;
};

/** Every transaction of the activity list, following the cursors. */
async function allActivity(token = access): Promise<Transaction[]> {
  const rows: Transaction[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `&cursor=${cursor}` : '';
    const response = await t.app.inject({ method: 'GET', url: `/api/v1/transactions?limit=25${query}`, headers: bearer(token) });
    const page: TransactionsPage = response.json<TransactionsPage>();
    rows.push(...page.transactions);
    cursor = page.nextCursor;
  } while (cursor);
  return rows;
}

/** The months from `first` through `last` ('YYYY-MM'), newest first. */
function monthsBetween(first: string, last: string): string[] {
  const months: string[] = [];
  for (let [year, month] = first.split('-').map(Number) as [number, number]; `${year}-${String(month).padStart(2, '0')}` <= last; ) {
    months.push(`${year}-${String(month).padStart(2, '0')}`);
    [year, month] = month === 12 ? [year + 1, 1] : [year, month + 1];
  }
  return months.reverse();
}

function expectChained(list: Statement[], postedBalance: number) {
  const oldestFirst = [...list].reverse();
  expect(oldestFirst[0]!.openingBalance).toBe(0);
  for (const [index, month] of oldestFirst.entries()) {
    expect(month.closingBalance, month.month).toBe(month.openingBalance + month.credits - month.debits);
    if (index > 0) expect(month.openingBalance, month.month).toBe(oldestFirst[index - 1]!.closingBalance);
  }
  expect(list[0]!.closingBalance).toBe(postedBalance);
}

describe('GET /api/v1/statements', () => {
  it('lists every month from the first transaction through this one, newest first, balances chaining to the posted balance', async () => {
    const { status, body } = await statements();
    expect(status).toBe(200);
    expect(body.statusCode).toBe(StatusCode.SUCCESS);
    const activity = await allActivity();
    const oldest = activity.at(-1)!;
    // The demo account was created at seeding; its history (four months) goes back further.
    expect(body.statements.map((statement) => statement.month)).toEqual(monthsBetween(easternMonth(oldest.timestamp), easternMonth(Date.now())));
    expect(body.statements.length).toBeGreaterThanOrEqual(4);

    const { accountOverview } = await home();
    expectChained(body.statements, accountOverview.balance + accountOverview.onHold);
    // What holds keep out of the available balance: the current month says it (the demo has one), the others do not.
    expect(accountOverview.onHold).toBeGreaterThan(0);
    expect(body.statements.map((statement) => statement.onHold)).toEqual(body.statements.map((statement) => (statement.inProgress ? accountOverview.onHold : 0)));

    // Each month's totals are the posted rows of the activity list in that month in New York.
    for (const statement of body.statements) {
      const rows = activity.filter((row) => row.status === 'posted' && easternMonth(row.timestamp) === statement.month);
      expect(statement.credits, statement.month).toBe(rows.filter((row) => row.amount > 0).reduce((sum, row) => sum + row.amount, 0));
      expect(statement.debits, statement.month).toBe(rows.filter((row) => row.amount < 0).reduce((sum, row) => sum - row.amount, 0));
    }
  });

  it('counts a settled hold in the month it settled, for what it settled; a hold still pending or released moves nothing', async () => {
    const before = (await statements()).body.statements[0]!;
    const settled = await event({ type: 'card.authorization', email: 'demo@providers.test', amountCents: 2500, merchant: 'Tower Cafe' });
    const pending = await event({ type: 'card.authorization', email: 'demo@providers.test', amountCents: 700, merchant: 'Valero' });
    const released = await event({ type: 'card.authorization', email: 'demo@providers.test', amountCents: 999, merchant: 'Target' });
    // Holds move no balance; they are on hold.
    expect((await statements()).body.statements[0]).toEqual({ ...before, onHold: before.onHold + 2500 + 700 + 999 });

    await event({ type: 'card.settlement', transactionId: settled, amountCents: 2310 });
    await event({ type: 'card.release', transactionId: released });
    await event({ type: 'deposit', email: 'demo@providers.test', amountCents: 48000, payer: 'Fresno County DSS', payee: 'MARIA LOPEZ' });
    const after = (await statements()).body;
    expect(after.statements[0]).toEqual({
      ...before,
      credits: before.credits + 48000,
      debits: before.debits + 2310,
      closingBalance: before.closingBalance + 48000 - 2310,
      onHold: before.onHold + 700,
    });
    const { accountOverview } = await home();
    expectChained(after.statements, accountOverview.balance + accountOverview.onHold);
    await event({ type: 'card.release', transactionId: pending });
  });

  it("starts another cardholder's list at his own first month", async () => {
    // His sign-in needs a texted code: the sandbox issues his session directly.
    const session = await t.app.inject({ method: 'POST', url: '/sandbox/sessions', payload: { email: mfaCardholder.email, accessTtlSeconds: 600 } });
    expect(session.statusCode, session.body).toBe(200);
    const token = session.json<{ access: string }>().access;
    const { body } = await statements(token);
    const activity = await allActivity(token);
    expect(body.statements.map((statement) => statement.month)).toEqual(monthsBetween(easternMonth(activity.at(-1)!.timestamp), easternMonth(Date.now())));
    expectChained(body.statements, 48000 - 2315 - 4120 + 48000 - 1899);
  });

  it('needs the access token', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/statements' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ statusCode: StatusCode.SIGN_IN_REQUIRED });
  });
});

describe('GET /api/v1/statement', () => {
  it("answers a month's statement as a PDF attachment, saying its closing balance, the masked account number and the bank", async () => {
    const [latest] = (await statements()).body.statements;
    const { status, headers, bytes } = await statementPdf(`?month=${latest!.month}&locale=en`);
    expect(status).toBe(200);
    expect(headers['content-type']).toBe('application/pdf');
    expect(headers['content-disposition']).toBe(`attachment; filename="providers-statement-${latest!.month}.pdf"`);
    expect(headers['cache-control']).toBe('no-store');
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');

    const text = await pdfText(bytes);
    expect(text).toContain('Monthly statement');
    expect(text).toContain('Maria Lopez');
    expect(text).toContain('••••5678');
    expect(text).not.toContain('400012345678');
    expect(text).toContain('Closing balance');
    expect(text).toContain(dollars(latest!.closingBalance));
    expect(text).toContain(dollars(latest!.openingBalance));
    expect(text).toContain(partnerBank.name);
    expect(text).toContain(partnerBankAddress);
    expect(text).toContain('Purchase at Tower Cafe');
    // Its dates are US Eastern's and a day may differ from the app's: it says so.
    expect(text.replace(/\s+/g, ' ')).toContain(
      "Dates and months here are in US Eastern Time (New York). In another time zone, a transaction near midnight may show a different day here than in the app",
    );
    expect(text).toContain(`-${dollars(2310)}`);
    expect(text).not.toContain('Target');
    // The seeded hold, still pending: listed apart, after the month's transactions.
    const pendingNow = text.split('Pending now')[1] ?? '';
    expect(pendingNow).toContain(`Purchase at ${demoHold.counterparty}`);
    expect(pendingNow).toContain(`-${dollars(demoHold.cents)}`);
    expect(await pdfInfo(bytes)).toMatchObject({ language: 'en-US' });
  });

  it('writes Spanish for locale=es, fees and every transaction of an older month, oldest first', async () => {
    const list = (await statements()).body.statements;
    const activity = await allActivity();
    const month = list.find((statement) => activity.some((row) => row.kind === 'fee' && easternMonth(row.timestamp) === statement.month))!;
    const rows = activity.filter((row) => row.status === 'posted' && easternMonth(row.timestamp) === month.month);
    const { status, headers, bytes } = await statementPdf(`?month=${month.month}&locale=es`);
    expect(status).toBe(200);
    expect(headers['content-disposition']).toBe(`attachment; filename="providers-estado-de-cuenta-${month.month}.pdf"`);
    const text = await pdfText(bytes);
    for (const words of ['Estado de cuenta mensual', 'Titular de la tarjeta', 'Saldo inicial', 'Saldo final', 'Movimientos', 'Cargo: Recarga en efectivo', 'es emitida por', 'Las fechas y los meses de este estado de cuenta están en la hora del Este de EE. UU. (Nueva York)']) {
      expect(text.replace(/\s+/g, ' ')).toContain(words);
    }
    expect(text).toContain(partnerBankAddress);
    // The month on its own line is capitalized, as the screen's heading for it.
    expect(text).toContain(formatMonth(month.month, 'es', 'heading'));
    expect(text).toContain(dollars(month.closingBalance));
    // The month's transactions come before the holds pending at its end (or now), which count in no balance.
    const [transactions] = text.split(/Pendientes (?:al cierre del mes|ahora)/);
    expect(transactions!.match(/Compra en /g)?.length).toBe(rows.filter((row) => row.kind === 'purchase').length);
    // Every transaction is on it, each with its signed amount.
    for (const row of rows) expect(text).toContain(`${row.amount > 0 ? '+' : '-'}${dollars(Math.abs(row.amount))}`);
    expect(await pdfInfo(bytes)).toMatchObject({ language: 'es-US' });
  });

  it('writes what it can of a merchant name its fonts cannot write, and takes as many pages as the month needs', async () => {
    const { applicantTokens } = await freshCardholderWithPurchases(60, 'Café 東京 🍜 Ørsted');
    // The purchases' month (a clock read now could be a month on).
    const month = easternMonth((await allActivity(applicantTokens))[0]!.timestamp);
    const pages = await pdfPages((await statementPdf(`?month=${month}&locale=en`, applicantTokens)).bytes);
    expect(pages.length).toBeGreaterThan(1);
    expect(pages.join('\n')).toContain('Purchase at Café ?? ? Ørsted');
    expect(pages.every((page) => page.includes(partnerBankAddress))).toBe(true);
    expect(pages.at(-1)).toContain(`Page ${pages.length} of ${pages.length}`);
  });

  it('answers 404 for a month outside the account, 400 for a malformed month or language', async () => {
    const list = (await statements()).body.statements;
    const before = list.at(-1)!.month;
    const [year, month] = before.split('-').map(Number) as [number, number];
    const earlier = month === 1 ? `${year - 1}-12` : `${year}-${String(month - 1).padStart(2, '0')}`;
    expect((await statementPdf(`?month=${earlier}&locale=en`)).response.json()).toEqual({ statusCode: StatusCode.NOT_ALLOWED });
    expect((await statementPdf(`?month=${earlier}&locale=en`)).status).toBe(404);
    expect((await statementPdf(`?month=${new Date().getUTCFullYear() + 1}-01&locale=en`)).status).toBe(404);
    // Well formed, and long before any account: Date.UTC reads years 0-99 as 1900-1999, and New York
    // kept its own mean time before 1883, so no such month has a US Eastern midnight to begin at.
    for (const month of ['0000-01', '0050-06', '0099-12', '0100-01', '1882-12', '1969-12']) {
      expect((await statementPdf(`?month=${month}&locale=en`)).status, month).toBe(404);
    }
    for (const query of ['?month=2026-13&locale=en', '?month=2026-1&locale=en', '?month=2026-11&locale=fr', '?month=2026-11', '?locale=en', '?month=2026-11&locale=en&x=1']) {
      const answer = await statementPdf(query);
      expect(answer.status, query).toBe(400);
      expect(answer.response.json(), query).toEqual({ statusCode: StatusCode.INVALID_PARAMETERS });
    }
  });

  it('needs the access token', async () => {
    const answer = await statementPdf(`?month=${easternMonth(Date.now())}&locale=en`, null);
    expect(answer.status).toBe(401);
    expect(answer.response.json()).toEqual({ statusCode: StatusCode.SIGN_IN_REQUIRED });
  });
});

/** A new cardholder (registered through the API) with a deposit and `count` purchases at `merchant` this month. */
async function freshCardholderWithPurchases(count: number, merchant: string): Promise<{ applicantTokens: string }> {
  const { verifiedApplicant, register } = await import('../helpers.ts');
  const applicant = await verifiedApplicant(t.app);
  const registered = await register(t.app, applicant);
  expect(registered.status, JSON.stringify(registered.body)).toBe(200);
  await event({ type: 'deposit', email: applicant.email, amountCents: 100_000, payer: 'Valley Transit', payee: `${applicant.firstName} ${applicant.lastName}` });
  for (let index = 0; index < count; index += 1) {
    await event({ type: 'card.refund', email: applicant.email, amountCents: 100 + index, merchant: `Store ${index}` });
  }
  const held = await event({ type: 'card.authorization', email: applicant.email, amountCents: 1234, merchant });
  await event({ type: 'card.settlement', transactionId: held });
  return { applicantTokens: registered.body.access! };
}
