import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HomeAnswer } from '../../../contract/home/types.ts';
import type { UserAnswer } from '../../../contract/account/types.ts';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import { transactionKinds } from '../../../contract/activity/types.ts';
import { demoActivity, demoHold } from '../../../server/seed.ts';
import { changedWithinAYear } from '../../../server/features/account/queries.ts';
import { bearer, demoCardholder, demoUser, getHome, signIn, startTestApp, type TestApp } from '../helpers.ts';

let t: TestApp;
let home: HomeAnswer;

beforeAll(async () => {
  t = await startTestApp();
  const { access } = await signIn(t.app);
  const response = await getHome(t.app, access);
  expect(response.statusCode).toBe(200);
  home = response.json<HomeAnswer>();
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/v1/home', () => {
  it('answers SUCCESS', () => {
    expect(home.statusCode).toBe(StatusCode.SUCCESS);
  });

  it('reports the available balance: every seeded transfer, less the hold', () => {
    const ledgerSum = demoActivity().reduce((sum, entry) => sum + entry.cents, 0);

    expect(Number.isInteger(home.accountOverview.balance)).toBe(true);
    expect(home.accountOverview.balance).toBe(ledgerSum - demoHold.cents);
    expect(home.accountOverview.onHold).toBe(demoHold.cents);
  });

  it('lists the hold first, pending, with its merchant and when it is released', () => {
    const [hold] = home.accountOverview.transactions;

    expect(hold).toMatchObject({ kind: 'purchase', status: 'pending', amount: -demoHold.cents, counterparty: demoHold.counterparty });
    expect(Date.parse(hold!.heldUntil!) - Date.parse(hold!.timestamp)).toBe(7 * 86_400_000);
  });

  it('lists the active virtual card and the active physical card', () => {
    const { cards } = home.accountOverview;

    expect(cards).toHaveLength(2);
    expect(cards.filter((card) => card.type === 'VIRTUAL' && card.status === 'ACTIVE')).toEqual([
      expect.objectContaining({ isActive: true, isPending: false, frozen: false, lastFour: '4821', delivery: null }),
    ]);
    expect(cards.filter((card) => card.type === 'PHYSICAL' && card.status === 'ACTIVE')).toEqual([
      expect.objectContaining({ isActive: true, isPending: false, frozen: false, lastFour: '7390', delivery: null }),
    ]);
  });

  it('never exposes full card numbers or expiry dates', async () => {
    for (const card of home.accountOverview.cards) {
      expect(Object.keys(card).sort()).toEqual(
        ['delivery', 'frozen', 'id', 'isActive', 'isPending', 'lastFour', 'replacedByCardId', 'replacesCardId', 'status', 'type'],
      );
      expect(card.lastFour).toMatch(/^\d{4}$/);
    }
    // Her cards' expiry dates as stored: the seed counts them from the year it runs (server/seed.ts).
    const { rows } = (await t.db.execute(sql`select c.expiry from cards c join accounts a on a.id = c.account_id
      where a.user_id = ${(await demoUser(t.db)).id}`)) as unknown as { rows: { expiry: string }[] };
    const expiries = rows.map((row) => row.expiry);
    expect(expiries).toHaveLength(2); // her virtual and physical cards: the check below is not vacuous
    const answer = JSON.stringify(home);
    for (const expiry of expiries) expect(answer).not.toContain(expiry);
  });

  it('has no pending card (both of hers are active) and points virtualCard at the virtual card', () => {
    const virtual = home.accountOverview.cards.find((card) => card.type === 'VIRTUAL')!;

    expect(home.pendingCard).toBeNull();
    expect(home.virtualCard).toEqual({ id: virtual.id });
  });

  it('returns at most 20 transactions, newest first', () => {
    const { transactions } = home.accountOverview;
    const times = transactions.map((transaction) => Date.parse(transaction.timestamp));

    expect(transactions).toHaveLength(Math.min(20, demoActivity().length));
    expect(times.every((time) => !Number.isNaN(time))).toBe(true);
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('returns the 20 most recent transfers of her ledger account, not just any 20', async () => {
    // Her own ledger account: the sandbox has a second cardholder with activity too.
    const { rows } = (await t.db.execute(sql`select t.id from transfers t
      join ledger_accounts la on la.id in (t.debit_ledger_account_id, t.credit_ledger_account_id)
      join accounts a on a.id = la.account_id
      where a.user_id = ${(await demoUser(t.db)).id}
      order by t.occurred_at desc limit 20`)) as unknown as { rows: { id: string }[] };

    expect(home.accountOverview.transactions.map((transaction) => transaction.id)).toEqual(rows.map((row) => row.id));
  });

  it('returns transactions with signed integer cent amounts that come from the ledger', () => {
    const seededAmounts = new Set([...demoActivity().map((entry) => entry.cents), -demoHold.cents]);

    for (const transaction of home.accountOverview.transactions) {
      expect(Number.isInteger(transaction.amount)).toBe(true);
      expect(seededAmounts.has(transaction.amount)).toBe(true);
      expect(transactionKinds).toContain(transaction.kind);
    }
    expect(home.accountOverview.transactions.some((transaction) => transaction.amount < 0)).toBe(true);
    expect(home.accountOverview.transactions.some((transaction) => transaction.amount > 0)).toBe(true);
  });

  it("carries the account's PRN 400012345678", () => {
    expect(home.prn).toBe('400012345678');
    expect(home.accountOverview.prn).toBe('400012345678');
  });

  it('flags the account as funded', () => {
    expect(home.hasFundedAnyKind).toBe(true);
    expect(home.accountOverview.flags).toEqual({ hasFunded: true, hasFundedAnyKind: true });
  });
});

describe('GET /api/v1/user', () => {
  it("answers the cardholder's profile", async () => {
    const { access } = await signIn(t.app);
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/user', headers: bearer(access) });

    expect(response.statusCode).toBe(200);
    const body = response.json<UserAnswer>();
    expect(body.statusCode).toBe(StatusCode.SUCCESS);
    expect(body.user).toMatchObject({
      fullName: 'Maria Lopez',
      email: demoCardholder.email,
      isInternal: false,
      canUpdateAddress: true,
      canUpdatePhone: true,
      address: { street1: '1420 N Blackstone Ave', street2: 'Apt 12', city: 'Fresno', state: 'CA', zip: '93703' },
    });
  });

  it('allows an address or phone change again a calendar year on (spec §9 once a year), not 365 days', () => {
    const at = (iso: string) => new Date(iso);
    expect(changedWithinAYear(null)).toBe(false);
    expect(changedWithinAYear(at('2027-03-01T12:00:00Z'), at('2028-02-29T12:00:00Z')), 'a leap day inside the year: 366 days').toBe(true);
    expect(changedWithinAYear(at('2027-03-01T12:00:00Z'), at('2028-03-01T11:59:59Z'))).toBe(true);
    expect(changedWithinAYear(at('2027-03-01T12:00:00Z'), at('2028-03-01T12:00:00Z'))).toBe(false);
    expect(changedWithinAYear(at('2028-02-29T12:00:00Z'), at('2029-02-28T12:00:00Z'))).toBe(true);
    expect(changedWithinAYear(at('2028-02-29T12:00:00Z'), at('2029-03-01T12:00:00Z'))).toBe(false);
  });

  it('never returns password or unlock code hashes', async () => {
    const { access } = await signIn(t.app);
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/user', headers: bearer(access) });

    expect(response.body).not.toMatch(/scrypt|hash|password|unlock/i);
  });
});
