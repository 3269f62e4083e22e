/**
 * GET /transactions and GET /transaction read the ledger as the cardholder sees it, and
 * POST /sandbox/events moves money through it: a purchase is held, then settles or is released.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transaction, TransactionAnswer, TransactionsPage } from '../../../contract/activity/types.ts';
import type { HomeAnswer } from '../../../contract/home/types.ts';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import { fees } from '../../../contract/shared/fees.ts';
import { sandboxCardTransactions } from '../../../server/db/schema/index.ts';
import { feeTimeAfter } from '../../../server/partners/moneyEvents.ts';
import { demoActivity, demoHold, mfaCardholder } from '../../../server/seed.ts';
import { bearer, getHome, signIn, signInWith, startTestApp, type TestApp } from '../helpers.ts';

let t: TestApp;
let access: string;

beforeAll(async () => {
  t = await startTestApp({ env: { SANDBOX: 'true' } });
  ({ access } = await signIn(t.app));
});
afterAll(async () => {
  await t?.close();
});

const page = async (query = '') => {
  const response = await t.app.inject({ method: 'GET', url: `/api/v1/transactions${query}`, headers: bearer(access) });
  return { status: response.statusCode, body: response.json<TransactionsPage>() };
};
const detail = async (id: string, token = access) => {
  const response = await t.app.inject({ method: 'GET', url: `/api/v1/transaction?id=${id}`, headers: bearer(token) });
  return { status: response.statusCode, body: response.json<TransactionAnswer>() };
};
const event = async (body: object, idempotencyKey?: string) => {
  const response = await t.app.inject({
    method: 'POST',
    url: '/sandbox/events',
    payload: body,
    headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : {},
  });
  return { status: response.statusCode, body: response.json<{ statusCode: number; result: string; transactionId?: string }>() };
};
const home = async () => (await getHome(t.app, access)).json<HomeAnswer>();
const report = async () => (await t.app.inject({ method: 'GET', url: '/sandbox/ledger/report' })).json<{ report: { ok: boolean; problems: string[] } }>().report;

/** Every page, following the cursors. */
async function allPages(limit: number): Promise<Transaction[][]> {
  const pages: Transaction[][] = [];
  let cursor: string | null = null;
  do {
    const { status, body } = await page(`?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(status).toBe(200);
    pages.push(body.transactions);
    cursor = body.nextCursor;
  } while (cursor);
  return pages;
}

describe('GET /api/v1/transactions', () => {
  it('pages through every transaction once, newest first, the last page without a cursor', async () => {
    const pages = await allPages(7);
    const rows = pages.flat();
    expect(rows).toHaveLength(demoActivity().length + 1);
    expect(new Set(rows.map((row) => row.id)).size).toBe(rows.length);
    const times = rows.map((row) => Date.parse(row.timestamp));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(pages.slice(0, -1).every((rowsOfPage) => rowsOfPage.length === 7)).toBe(true);
    // The sum of what the list shows is the balance home shows, plus what is held.
    const { accountOverview } = await home();
    expect(rows.reduce((sum, row) => sum + row.amount, 0)).toBe(accountOverview.balance);
  });

  it('answers 25 by default, and refuses a made-up cursor or a limit over a page', async () => {
    expect((await page()).body.transactions).toHaveLength(25);
    expect((await page('?cursor=bm90LWEtY3Vyc29y')).status).toBe(400);
    expect((await page('?limit=26')).status).toBe(400);
    expect((await page('?limit=0')).status).toBe(400);
  });

  it('refuses a signed-out session, on every page (its own statement checks the session)', async () => {
    const session = await signIn(t.app);
    const first = await t.app.inject({ method: 'GET', url: '/api/v1/transactions?limit=2', headers: bearer(session.access) });
    expect(first.statusCode).toBe(200);
    const { nextCursor } = first.json<TransactionsPage>();
    expect(nextCursor).toBeTypeOf('string');

    const signOut = await t.app.inject({ method: 'POST', url: '/api/v1/sign-out', headers: bearer(session.refresh) });
    expect(signOut.statusCode).toBe(200);
    for (const query of ['', `?cursor=${nextCursor}`, '?cursor=bm90LWEtY3Vyc29y']) {
      const response = await t.app.inject({ method: 'GET', url: `/api/v1/transactions${query}`, headers: bearer(session.access) });
      expect({ query, status: response.statusCode, body: response.json() }).toEqual({ query, status: 401, body: { statusCode: StatusCode.SIGN_IN_REQUIRED } });
    }
  });

  it('needs the access token', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/transactions' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ statusCode: StatusCode.SIGN_IN_REQUIRED });
  });
});

describe('GET /api/v1/transaction', () => {
  it("answers one of the cardholder's transactions, and 404 for another cardholder's", async () => {
    const [newest] = (await page('?limit=1')).body.transactions;
    expect(await detail(newest!.id)).toEqual({ status: 200, body: { statusCode: StatusCode.SUCCESS, transaction: newest } });
    // RFC 9562 §4: a UUID is read in either case (a client's UUID type may write it upper case).
    expect(await detail(newest!.id.toUpperCase())).toEqual({ status: 200, body: { statusCode: StatusCode.SUCCESS, transaction: newest } });

    const jordan = await signInWith(t.app, { email: mfaCardholder.email, password: mfaCardholder.password });
    expect(jordan.body.statusCode).toBe(StatusCode.MFA_REQUIRED);
    expect((await detail('00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await detail('not-a-uuid')).status).toBe(400);
  });
});

describe('POST /sandbox/events', () => {
  it('holds a purchase, then settles a lower amount: the balance follows and the row keeps its place', async () => {
    const before = await home();
    const held = await event({ type: 'card.authorization', email: 'demo@providers.test', amountCents: 2500, merchant: 'Tower Cafe', location: 'Fresno, CA' });
    expect(held).toMatchObject({ status: 200, body: { statusCode: 0, result: 'created' } });
    const id = held.body.transactionId!;

    const pending = await home();
    expect(pending.accountOverview.balance).toBe(before.accountOverview.balance - 2500);
    expect(pending.accountOverview.onHold).toBe(before.accountOverview.onHold + 2500);
    expect(pending.accountOverview.transactions[0]).toMatchObject({ id, status: 'pending', amount: -2500, counterparty: 'Tower Cafe' });
    const held2500 = (await detail(id)).body.transaction;
    expect(held2500.heldUntil).not.toBeNull();
    // Not completed yet: neither when nor the amount first held.
    expect(held2500).not.toHaveProperty('settledAt');
    expect(held2500).not.toHaveProperty('heldAmount');

    const settling = Date.now();
    expect(await event({ type: 'card.settlement', transactionId: id, amountCents: 2310 })).toMatchObject({ status: 200, body: { transactionId: id } });
    const settled = await home();
    expect(settled.accountOverview.balance).toBe(before.accountOverview.balance - 2310);
    expect(settled.accountOverview.onHold).toBe(before.accountOverview.onHold);
    const completed = (await detail(id)).body.transaction;
    // The detail says when it was completed (its statement's month) and that $25.00 was held first.
    expect(completed).toMatchObject({ id, status: 'posted', amount: -2310, heldUntil: null, heldAmount: 2500 });
    expect(Date.parse(completed.settledAt!)).toBeGreaterThanOrEqual(Date.parse(completed.timestamp));
    expect(Date.parse(completed.settledAt!)).toBeGreaterThanOrEqual(settling - 1000);
    // A deposit, posted at once, has neither.
    const deposit = (await event({ type: 'deposit', email: 'demo@providers.test', amountCents: 100, payer: 'Probe', payee: 'MARIA LOPEZ' })).body.transactionId!;
    expect(Object.keys((await detail(deposit)).body.transaction)).not.toContain('settledAt');
    expect(Object.keys((await detail(deposit)).body.transaction)).not.toContain('heldAmount');
    expect(await report()).toMatchObject({ ok: true });
  });

  it('settles a tip: more than was held when the balance covers the extra, refused and the hold kept when it does not', async () => {
    const before = await home();
    const { balance } = before.accountOverview;
    const held = (await event({ type: 'card.authorization', email: 'demo@providers.test', amountCents: 2000, merchant: 'Tower Cafe' })).body.transactionId!;

    // One cent more than the hold and the balance left beside it: nothing moves and the hold stays.
    const tooMuch = await event({ type: 'card.settlement', transactionId: held, amountCents: balance + 1 });
    expect(tooMuch).toMatchObject({ status: 409, body: { result: 'exceeds_credits' } });
    expect((await home()).accountOverview).toMatchObject({ balance: balance - 2000, onHold: before.accountOverview.onHold + 2000 });
    expect((await detail(held)).body.transaction).toMatchObject({ status: 'pending', amount: -2000 });

    // The hold and all the balance left beside it: covered, to the cent.
    const tip = balance - 2000;
    expect(await event({ type: 'card.settlement', transactionId: held, amountCents: 2000 + tip }, 'tip-settlement')).toMatchObject({
      status: 200,
      body: { result: 'created', transactionId: held },
    });
    expect((await home()).accountOverview).toMatchObject({ balance: 0, onHold: before.accountOverview.onHold });
    expect((await detail(held)).body.transaction).toMatchObject({ status: 'posted', amount: -(2000 + tip), heldAmount: 2000 });
    // A retry is the same settlement, even now that nothing is left to cover it.
    expect(await event({ type: 'card.settlement', transactionId: held, amountCents: 2000 + tip }, 'tip-settlement')).toMatchObject({
      status: 200,
      body: { result: 'exists', transactionId: held },
    });
    expect(await report()).toMatchObject({ ok: true });
    // Give the other tests their balance back.
    await event({ type: 'deposit', email: 'demo@providers.test', amountCents: 2000 + tip, payer: 'Refill', payee: 'MARIA LOPEZ' });
  });

  it('releases a hold: it leaves the activity and the balance comes back', async () => {
    const before = await home();
    const { body } = await event({ type: 'card.authorization', email: 'demo@providers.test', amountCents: 999, merchant: 'Valero' });
    expect((await home()).accountOverview.balance).toBe(before.accountOverview.balance - 999);
    expect(await event({ type: 'card.release', transactionId: body.transactionId })).toMatchObject({ status: 200 });
    expect((await home()).accountOverview.balance).toBe(before.accountOverview.balance);
    expect((await detail(body.transactionId!)).status).toBe(404);
    expect(await event({ type: 'card.settlement', transactionId: body.transactionId })).toMatchObject({
      status: 409,
      body: { result: 'pending_transfer_already_voided' },
    });
  });

  it('declines a purchase over the available balance and moves nothing', async () => {
    const before = await home();
    const declined = await event({ type: 'card.authorization', email: 'demo@providers.test', amountCents: before.accountOverview.balance + 1, merchant: 'Best Buy' });
    expect(declined).toMatchObject({ status: 409, body: { result: 'exceeds_credits' } });
    expect((await home()).accountOverview.balance).toBe(before.accountOverview.balance);
  });

  it('credits a deposit with its payer once, however often the same Idempotency-Key is sent', async () => {
    const before = await home();
    const deposit = { type: 'deposit', email: 'demo@providers.test', amountCents: 48000, payer: 'Fresno County DSS', payee: 'MARIA LOPEZ' };
    const answers = await Promise.all([1, 2, 3].map(() => event(deposit, 'payroll-2026-11-24')));
    expect(new Set(answers.map((answer) => answer.body.transactionId)).size).toBe(1);
    expect((await home()).accountOverview.balance).toBe(before.accountOverview.balance + 48000);
    expect((await event({ ...deposit, amountCents: 1 }, 'payroll-2026-11-24')).body.result).toBe('exists_with_different_fields');
    expect((await home()).accountOverview.transactions[0]).toMatchObject({ kind: 'deposit', counterparty: 'Fresno County DSS', amount: 48000 });
  });

  it("accepts a deposit only when it was sent to the account holder's name (spec §5), as payers write it", async () => {
    const before = await home();
    const deposit = { type: 'deposit', email: 'demo@providers.test', amountCents: 1500, payer: 'IRS TREAS 310' };
    // Someone else's tax refund, sent to this account's number: it goes back, nothing moves, under any key.
    expect(await event({ ...deposit, payee: 'JOSE LOPEZ' }, 'refund-2026')).toEqual({ status: 409, body: { statusCode: StatusCode.NOT_ALLOWED, result: 'name_mismatch' } });
    expect(await event({ ...deposit, payee: 'MARIA GARCIA' })).toMatchObject({ status: 409, body: { result: 'name_mismatch' } });
    expect((await home()).accountOverview).toEqual(before.accountOverview);
    // The holder's own, last name first and without accents: the refused key is free to be used.
    const refund = await event({ ...deposit, payee: 'Lopez, Maria' }, 'refund-2026');
    expect(refund).toMatchObject({ status: 200, body: { result: 'created' } });
    expect((await home()).accountOverview.balance).toBe(before.accountOverview.balance + 1500);
    // Its retry, the name now written so that it does not match: the deposit was made, and the answer says so.
    expect(await event({ ...deposit, payee: 'JOSE LOPEZ' }, 'refund-2026')).toMatchObject({ status: 200, body: { result: 'exists', transactionId: refund.body.transactionId } });
    expect((await home()).accountOverview.balance).toBe(before.accountOverview.balance + 1500);
    expect(await report()).toMatchObject({ ok: true, problems: [] });
  });

  it("times the ATM fee a millisecond after its cash, but never on the next US Eastern day: one month's statement holds both", () => {
    // The last millisecond of December in New York (EST, UTC-5): a millisecond more is January there.
    const lastOfDecember = new Date('2027-01-01T04:59:59.999Z');
    expect(feeTimeAfter(lastOfDecember)).toEqual(lastOfDecember);
    // The last millisecond of a UTC day is not a day's end in New York: the fee keeps its millisecond.
    const lastOfUtcDay = new Date('2026-07-31T23:59:59.999Z');
    expect(feeTimeAfter(lastOfUtcDay)).toEqual(new Date('2026-08-01T00:00:00.000Z'));
    // Daylight time (EDT, UTC-4): July ends at 04:00 UTC.
    expect(feeTimeAfter(new Date('2026-08-01T03:59:59.999Z'))).toEqual(new Date('2026-08-01T03:59:59.999Z'));
    expect(feeTimeAfter(new Date('2026-08-01T03:59:59.998Z'))).toEqual(new Date('2026-08-01T03:59:59.999Z'));
  });

  it('charges the out-of-network ATM fee with the cash, both or neither, once per Idempotency-Key', async () => {
    const fee = fees.atmWithdrawalOutOfNetwork.cents;
    const before = await home();
    const withdrawal = { type: 'atm.withdrawal', email: 'demo@providers.test', amountCents: 2000, location: 'Fresno, CA', network: 'out' };
    const answers = await Promise.all([1, 2].map(() => event(withdrawal, 'atm-out-1')));
    expect(answers.map((answer) => answer.body.result).sort()).toEqual(['created', 'exists']);
    const after = await home();
    expect(after.accountOverview.balance).toBe(before.accountOverview.balance - 2000 - fee);
    // Newest first, the fee above its cash, always (at the same time they came in their random ids' order).
    const [latestFee, latestCash] = after.accountOverview.transactions;
    expect(latestCash).toMatchObject({ id: answers[0]!.body.transactionId, kind: 'atm_withdrawal', amount: -2000, status: 'posted', location: 'Fresno, CA' });
    expect(latestFee).toMatchObject({ kind: 'fee', counterparty: 'atmWithdrawalOutOfNetwork', amount: -fee, status: 'posted' });
    expect(Date.parse(latestFee!.timestamp) - Date.parse(latestCash!.timestamp)).toBe(1);
    // The same key for an in-network withdrawal is another event.
    expect(await event({ ...withdrawal, network: 'in' }, 'atm-out-1')).toMatchObject({ status: 422, body: { result: 'exists_with_different_fields' } });

    // The cash alone fits the balance, the fee with it does not: neither is made.
    const short = await event({ ...withdrawal, amountCents: after.accountOverview.balance - fee + 1 });
    expect(short).toMatchObject({ status: 409, body: { result: 'exceeds_credits' } });
    // In network there is no fee: the same amount is paid out.
    const inNetwork = await event({ ...withdrawal, amountCents: after.accountOverview.balance - fee + 1, network: 'in' });
    expect(inNetwork).toMatchObject({ status: 200, body: { result: 'created' } });
    expect((await home()).accountOverview.balance).toBe(fee - 1);
    // The balance back to where this test found it, for the tests after this one.
    expect(await event({ type: 'deposit', email: 'demo@providers.test', amountCents: before.accountOverview.balance - (fee - 1), payer: 'Fresno County DSS', payee: 'MARIA LOPEZ' })).toMatchObject({ status: 200 });
    expect((await home()).accountOverview.balance).toBe(before.accountOverview.balance);
    expect((await event({ ...withdrawal, network: 'both' })).status).toBe(400);
    expect(await report()).toMatchObject({ ok: true, problems: [] });
  });

  it('refuses an event without what it needs, or for nobody', async () => {
    expect((await event({ type: 'deposit', email: 'demo@providers.test', amountCents: 100 })).status).toBe(400);
    expect((await event({ type: 'atm.withdrawal', email: 'nobody@providers.test', amountCents: 100 })).status).toBe(404);
    expect((await event({ type: 'deposit', email: 'demo@providers.test', amountCents: -5, payer: 'X', payee: 'MARIA LOPEZ' })).status).toBe(400);
    expect(await report()).toMatchObject({ ok: true, problems: [] });
  });

  it('names the fields a refused event got wrong, and refuses a field its type does not use instead of ignoring it', async () => {
    const before = await home();
    const answer = async (body: object) => {
      const response = await t.app.inject({ method: 'POST', url: '/sandbox/events', payload: body });
      return { status: response.statusCode, body: response.json() };
    };
    for (const amountCents of [0, -1, 1.5, '100', 1e308, 2 ** 53 + 1, null]) {
      expect(await answer({ type: 'deposit', email: 'demo@providers.test', payer: 'X', payee: 'MARIA LOPEZ', amountCents })).toEqual({
        status: 400,
        body: { statusCode: StatusCode.INVALID_PARAMETERS, invalid: ['amountCents'] },
      });
    }
    expect(await answer({ type: 'deposit', email: 'demo@providers.test', payer: 'X', payee: 'MARIA LOPEZ', amountCents: 5, tip: 1 })).toEqual({
      status: 400,
      body: { statusCode: StatusCode.INVALID_PARAMETERS, unexpected: ['tip'] },
    });
    // A release frees the whole hold: an amount with it would be silently dropped.
    expect(await answer({ type: 'card.release', transactionId: randomUUID(), amountCents: 5 })).toEqual({
      status: 400,
      body: { statusCode: StatusCode.INVALID_PARAMETERS, unexpected: ['amountCents'] },
    });
    expect(await answer({ type: 'deposit', email: 'demo@providers.test', amountCents: 5, holdDays: 3, network: 'out' })).toEqual({
      status: 400,
      body: { statusCode: StatusCode.INVALID_PARAMETERS, missing: ['payer', 'payee'], unexpected: ['holdDays', 'network'] },
    });
    expect((await answer({ type: 'ebt.swipe', email: 'demo@providers.test', amountCents: 500, merchant: 'Save Mart', location: 'Fresno, CA' })).status).toBe(400);
    // A body that is not JSON at all is still answered as the card API answers it.
    const broken = await t.app.inject({ method: 'POST', url: '/sandbox/events', headers: { 'content-type': 'application/json' }, payload: '{"type":' });
    expect({ status: broken.statusCode, body: broken.json() }).toEqual({ status: 400, body: { statusCode: StatusCode.INVALID_PARAMETERS } });
    expect((await home()).accountOverview).toMatchObject({ balance: before.accountOverview.balance, ebtRewardOwed: before.accountOverview.ebtRewardOwed });
  });

  it("reads a hold's id and a card's in either case (RFC 9562: case-insensitive on input)", async () => {
    const before = await home();
    const card = before.accountOverview.cards.find((shown) => shown.isActive && !shown.frozen)!;
    const { body } = await event({ type: 'card.authorization', email: 'demo@providers.test', amountCents: 120, merchant: 'Valero', cardId: card.id.toUpperCase() });
    expect(body.result).toBe('created');
    const upper = body.transactionId!.toUpperCase();
    expect(await event({ type: 'card.release', transactionId: upper })).toMatchObject({ status: 200, body: { result: 'created', transactionId: body.transactionId } });
    expect(await event({ type: 'card.release', transactionId: upper })).toMatchObject({ status: 409, body: { result: 'pending_transfer_already_voided' } });
    // Kept in lower case, so a keyed retry in the other case is the same event.
    const again = await event({ type: 'card.authorization', email: 'demo@providers.test', amountCents: 130, merchant: 'Valero' });
    const key = `upper-${randomUUID()}`;
    expect(await event({ type: 'card.release', transactionId: again.body.transactionId }, key)).toMatchObject({ status: 200, body: { result: 'created' } });
    expect(await event({ type: 'card.release', transactionId: again.body.transactionId!.toUpperCase() }, key)).toMatchObject({
      status: 200,
      body: { result: 'exists', transactionId: again.body.transactionId },
    });
    expect((await home()).accountOverview.balance).toBe(before.accountOverview.balance);
  });

  it('answers a keyed retry of a card transaction only when it names the card the first named', async () => {
    const before = await home();
    const [card, other] = before.accountOverview.cards;
    const refused = { status: 422, body: { statusCode: StatusCode.NOT_ALLOWED, result: 'exists_with_different_fields' } };
    const key = `by-card-${randomUUID()}`;
    const purchase = { type: 'card.authorization', email: 'demo@providers.test', amountCents: 150, merchant: 'Valero', cardId: card!.id };
    const first = await event(purchase, key);
    expect(first).toMatchObject({ status: 200, body: { result: 'created' } });
    expect(await event({ ...purchase, cardId: other!.id }, key)).toEqual(refused);
    expect(await event({ ...purchase, cardId: undefined }, key)).toEqual(refused);
    expect(await event({ ...purchase, cardId: card!.id.toUpperCase() }, key)).toMatchObject({ status: 200, body: { result: 'exists', transactionId: first.body.transactionId } });
    // Named by none, the retry must name none.
    const anyCardKey = `any-card-${randomUUID()}`;
    const withdrawal = { type: 'atm.withdrawal', email: 'demo@providers.test', amountCents: 200 };
    expect(await event(withdrawal, anyCardKey)).toMatchObject({ status: 200, body: { result: 'created' } });
    const physical = before.accountOverview.cards.find((shown) => shown.type === 'PHYSICAL')!;
    expect(await event({ ...withdrawal, cardId: physical.id }, anyCardKey)).toEqual(refused);
    expect(await event(withdrawal, anyCardKey)).toMatchObject({ status: 200, body: { result: 'exists' } });
    // One hold and one withdrawal made.
    expect((await home()).accountOverview.balance).toBe(before.accountOverview.balance - 150 - 200);
    expect(await event({ type: 'card.release', transactionId: first.body.transactionId })).toMatchObject({ status: 200 });
    expect(await event({ type: 'deposit', email: 'demo@providers.test', amountCents: 200, payer: 'Probe', payee: 'MARIA LOPEZ' })).toMatchObject({ status: 200 });
    expect(await report()).toMatchObject({ ok: true, problems: [] });
  });

  it('answers a keyed retry of a card transaction made before the card was kept (migration 0015) as the first', async () => {
    const before = await home();
    const card = before.accountOverview.cards[0]!;
    const key = `before-0015-${randomUUID()}`;
    const purchase = { type: 'card.authorization', email: 'demo@providers.test', amountCents: 90, merchant: 'Valero', cardId: card.id };
    const first = await event(purchase, key);
    expect(first).toMatchObject({ status: 200, body: { result: 'created' } });
    await t.db.delete(sandboxCardTransactions).where(eq(sandboxCardTransactions.transferId, first.body.transactionId!));
    expect(await event(purchase, key)).toMatchObject({ status: 200, body: { result: 'exists', transactionId: first.body.transactionId } });
    expect(await event({ type: 'card.release', transactionId: first.body.transactionId })).toMatchObject({ status: 200 });
  });

  it('keeps no refusal under its key: a declined purchase, retried with the same key after a deposit, is approved once', async () => {
    const before = await home();
    const key = `declined-${randomUUID()}`;
    const purchase = { type: 'card.authorization', email: 'demo@providers.test', amountCents: before.accountOverview.balance + 500, merchant: 'Best Buy' };
    expect(await event(purchase, key)).toMatchObject({ status: 409, body: { result: 'exceeds_credits' } });
    expect(await event({ type: 'deposit', email: 'demo@providers.test', amountCents: 500, payer: 'Probe', payee: 'MARIA LOPEZ' })).toMatchObject({ status: 200 });
    const approved = await event(purchase, key);
    expect(approved).toMatchObject({ status: 200, body: { result: 'created' } });
    expect(await event(purchase, key)).toMatchObject({ status: 200, body: { result: 'exists', transactionId: approved.body.transactionId } });
    expect((await home()).accountOverview.balance).toBe(0);
    // The balance back for the tests after this one.
    expect(await event({ type: 'card.release', transactionId: approved.body.transactionId })).toMatchObject({ status: 200 });
    expect((await home()).accountOverview.balance).toBe(before.accountOverview.balance + 500);
  });

  it('makes one Idempotency-Key one event whatever its type: another type with the key moves nothing', async () => {
    const before = await home();
    const key = `one-event-${randomUUID()}`;
    const deposit = await event({ type: 'deposit', email: 'demo@providers.test', amountCents: 111, payer: 'Probe', payee: 'MARIA LOPEZ' }, key);
    expect(deposit).toMatchObject({ status: 200, body: { result: 'created' } });
    const refused = { status: 422, body: { statusCode: StatusCode.NOT_ALLOWED, result: 'exists_with_different_fields' } };
    expect(await event({ type: 'card.refund', email: 'demo@providers.test', amountCents: 111, merchant: 'Probe' }, key)).toEqual(refused);
    expect(await event({ type: 'card.authorization', email: 'demo@providers.test', amountCents: 111, merchant: 'Probe' }, key)).toEqual(refused);
    expect(await event({ type: 'atm.withdrawal', email: 'demo@providers.test', amountCents: 111 }, key)).toEqual(refused);
    expect(await event({ type: 'ebt.swipe', email: 'demo@providers.test', amountCents: 111, merchant: 'Probe' }, key)).toEqual(refused);
    // The same deposit again is the first one.
    expect(await event({ type: 'deposit', email: 'demo@providers.test', amountCents: 111, payer: 'Probe', payee: 'MARIA LOPEZ' }, key)).toMatchObject({ status: 200, body: { result: 'exists' } });

    // A settlement's key cannot release another hold, nor a swipe's key make a deposit.
    const [a, b] = await Promise.all([1, 2].map(() => event({ type: 'card.authorization', email: 'demo@providers.test', amountCents: 200, merchant: 'Valero' })));
    const settleKey = `settle-${randomUUID()}`;
    expect(await event({ type: 'card.settlement', transactionId: a!.body.transactionId }, settleKey)).toMatchObject({ status: 200 });
    expect(await event({ type: 'card.release', transactionId: b!.body.transactionId }, settleKey)).toEqual(refused);
    expect(await event({ type: 'card.release', transactionId: b!.body.transactionId })).toMatchObject({ status: 200 });
    const swipeKey = `swipe-${randomUUID()}`;
    expect(await event({ type: 'ebt.swipe', email: 'demo@providers.test', amountCents: 1_000, merchant: 'Save Mart' }, swipeKey)).toMatchObject({ status: 200 });
    expect(await event({ type: 'deposit', email: 'demo@providers.test', amountCents: 1_000, payer: 'Probe', payee: 'MARIA LOPEZ' }, swipeKey)).toEqual(refused);

    const after = (await home()).accountOverview;
    expect(after.balance).toBe(before.accountOverview.balance + 111 - 200);
    expect(after.ebtRewardOwed).toBe(before.accountOverview.ebtRewardOwed + 10);
    expect(await report()).toMatchObject({ ok: true, problems: [] });
  });

  it('keeps the seeded hold until it settles (home explains it)', async () => {
    const { accountOverview } = await home();
    expect(accountOverview.transactions.some((row) => row.status === 'pending' && row.amount === -demoHold.cents)).toBe(true);
  });
});

describe('POST /sandbox/events ebt.swipe', () => {
  it('owes the cardholder 1% of an EBT swipe, in whole cents, and moves no money', async () => {
    const before = await home();
    expect(await event({ type: 'ebt.swipe', email: 'demo@providers.test', amountCents: 5_250, merchant: 'Food 4 Less' })).toMatchObject({
      status: 200,
      body: { result: 'reward_owed' },
    });
    const after = await home();
    expect(after.accountOverview.ebtRewardOwed).toBe(before.accountOverview.ebtRewardOwed + 52);
    expect(after.accountOverview.balance).toBe(before.accountOverview.balance);
    expect((await event({ type: 'ebt.swipe', email: 'nobody@providers.test', amountCents: 100, merchant: 'X' })).status).toBe(404);
  });

  it('counts a retried swipe once (the same Idempotency-Key answers the first result), and refuses the key for another swipe', async () => {
    const swipe = { type: 'ebt.swipe', email: 'demo@providers.test', amountCents: 4_000, merchant: 'Save Mart' };
    const key = `ebt-swipe-${randomUUID()}`;
    const before = (await home()).accountOverview.ebtRewardOwed;
    const answers = await Promise.all([event(swipe, key), event(swipe, key), event(swipe, key)]);
    for (const answer of answers) expect(answer).toEqual({ status: 200, body: { statusCode: 0, result: 'reward_owed', ebtRewardOwed: before + 40 } });
    expect((await home()).accountOverview.ebtRewardOwed).toBe(before + 40);
    expect(await event({ ...swipe, amountCents: 9_000 }, key)).toEqual({ status: 422, body: { statusCode: StatusCode.NOT_ALLOWED, result: 'exists_with_different_fields' } });
    expect((await home()).accountOverview.ebtRewardOwed).toBe(before + 40);
  });
});
