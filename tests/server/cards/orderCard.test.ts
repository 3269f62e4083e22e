/**
 * The card fee's money rules (POST /order-card, /card/replace): an Idempotency-Key is required; a
 * replay answers the first result and charges nothing more; the same key with another request is
 * refused; a balance short of the fee charges nothing and makes no card; the ledger stays balanced.
 */
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fees } from '../../../contract/shared/fees.ts';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import { cards, transfers } from '../../../server/db/schema/index.ts';
import { startTestApp, type TestApp } from '../helpers.ts';
import { activePhysicalCard, cardCall, home, ledgerReport, newCardholder, orderCard } from './helpers.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const feeCount = async (accountId: string) => {
  const [row] = await t.db
    .select({ count: sql<number>`count(*)::int` })
    .from(transfers)
    .where(sql`${transfers.kind} = 'fee' and ${transfers.debitLedgerAccountId} = (select id from ledger_accounts where account_id = ${accountId})`);
  return row!.count;
};
const cardCount = async (accountId: string) => (await t.db.select().from(cards).where(eq(cards.accountId, accountId))).length;

describe('the Idempotency-Key', () => {
  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['too long', 'k'.repeat(256)],
    ['with spaces', 'a key'],
  ])('is required on /order-card and /card/replace: %s answers 400 {2}, charging nothing', async (_case, key) => {
    const holder = await newCardholder(t.app, t.db, 5000);
    expect(await cardCall(t.app, holder.access, '/order-card', {}, key)).toEqual({ status: 400, body: { statusCode: StatusCode.INVALID_PARAMETERS } });
    expect(await cardCall(t.app, holder.access, '/card/replace', { id: holder.virtualCardId }, key)).toEqual({
      status: 400,
      body: { statusCode: StatusCode.INVALID_PARAMETERS },
    });
    expect(await feeCount(holder.accountId)).toBe(0);
  });

  it('makes a replay answer the first result: the same card, one fee', async () => {
    const holder = await newCardholder(t.app, t.db, 5000);
    const key = randomUUID();

    const first = await orderCard(t.app, holder.access, key);
    const again = await orderCard(t.app, holder.access, key);

    expect(first.status).toBe(200);
    expect(again).toEqual(first);
    expect(await feeCount(holder.accountId)).toBe(1);
    expect(await cardCount(holder.accountId)).toBe(2);
    expect((await home(t.app, holder.access)).accountOverview.balance).toBe(5000 - fees.physicalCard.cents);
  });

  it('answers a replay with the card as it is now (shipped since), not a new one', async () => {
    const holder = await newCardholder(t.app, t.db, 5000);
    const key = randomUUID();
    const first = await orderCard(t.app, holder.access, key);
    await t.app.inject({ method: 'POST', url: '/sandbox/events', payload: { type: 'card.shipped', cardId: first.body.card!.id } });

    const again = await orderCard(t.app, holder.access, key);

    expect(again.body.card).toMatchObject({ id: first.body.card!.id, delivery: { shippedOn: expect.any(String) } });
    expect(await feeCount(holder.accountId)).toBe(1);
  });

  it('refuses the same key with another request (idempotencyKeyReused), charging nothing more', async () => {
    const holder = await newCardholder(t.app, t.db, 5000);
    const physical = await activePhysicalCard(t.app, holder.access);
    const key = randomUUID();
    const replaced = await cardCall(t.app, holder.access, '/card/replace', { id: physical.id }, key);
    expect(replaced.status).toBe(200);

    const otherCard = await cardCall(t.app, holder.access, '/card/replace', { id: holder.virtualCardId }, key);

    expect(otherCard).toEqual({ status: 422, body: { statusCode: StatusCode.NOT_ALLOWED, reason: 'idempotencyKeyReused' } });
    expect(await cardCall(t.app, holder.access, '/card/replace', { id: physical.id }, key)).toEqual(replaced);
    expect(await feeCount(holder.accountId)).toBe(2);
  });

  it("is the caller's own: another cardholder's same key orders another card", async () => {
    const key = randomUUID();
    const one = await newCardholder(t.app, t.db, 5000);
    const two = await newCardholder(t.app, t.db, 5000);

    const first = await orderCard(t.app, one.access, key);
    const second = await orderCard(t.app, two.access, key);

    expect(second.status).toBe(200);
    expect(second.body.card!.id).not.toBe(first.body.card!.id);
  });
});

describe('a balance short of the fee', () => {
  it('refuses the order (insufficientFunds): nothing charged, no card, and the same key works once money arrives', async () => {
    const holder = await newCardholder(t.app, t.db, fees.physicalCard.cents - 1);
    const key = randomUUID();

    // With the balance now, as home shows it: the app's review shows it instead of the one it loaded.
    expect(await orderCard(t.app, holder.access, key)).toEqual({
      status: 403,
      body: { statusCode: StatusCode.NOT_ALLOWED, reason: 'insufficientFunds', balanceCents: fees.physicalCard.cents - 1 },
    });
    expect(await feeCount(holder.accountId)).toBe(0);
    expect(await cardCount(holder.accountId)).toBe(1);
    expect((await home(t.app, holder.access)).accountOverview.balance).toBe(fees.physicalCard.cents - 1);

    await t.app.inject({ method: 'POST', url: '/sandbox/events', payload: { type: 'deposit', email: holder.email, amountCents: 1, payer: 'Friend', payee: 'Test Cardholder' } });
    const ordered = await orderCard(t.app, holder.access, key);
    expect(ordered.status).toBe(200);
    expect((await home(t.app, holder.access)).accountOverview.balance).toBe(0);
  });

  it('refuses a damaged card replacement too, but never a lost or stolen one (free)', async () => {
    const holder = await newCardholder(t.app, t.db, fees.physicalCard.cents);
    const physical = await activePhysicalCard(t.app, holder.access);
    expect((await home(t.app, holder.access)).accountOverview.balance).toBe(0);

    expect(await cardCall(t.app, holder.access, '/card/replace', { id: physical.id }, randomUUID())).toEqual({
      status: 403,
      body: { statusCode: StatusCode.NOT_ALLOWED, reason: 'insufficientFunds', balanceCents: 0 },
    });
    const reported = await cardCall(t.app, holder.access, '/card/report-lost-stolen', { id: physical.id, status: 'STOLEN' });
    expect(reported.status).toBe(200);
    expect(reported.body.replacement).toMatchObject({ isPending: true, replacesCardId: physical.id });
    expect(await feeCount(holder.accountId)).toBe(1);
    expect(await ledgerReport(t.app)).toMatchObject({ ok: true, problems: [] });
  });
});
