/**
 * A card's life through the card API and the sandbox (spec §4): ordered ($5), on its way with its
 * delivery window, shipped, activated, locked and unlocked, lost or stolen (blocked at once, replaced
 * free of charge), replaced when damaged (the old card stops once the new one ships). Every change
 * the card's state does not allow is refused with its statusCode, and nobody reaches another's card.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardDeliveryWindow, usCalendarDay } from '../../../contract/shared/businessDays.ts';
import { fees } from '../../../contract/shared/fees.ts';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import { checkCardExpiry } from '../../../contract/cards/rules.ts';
import { todayInEveryState } from '../../../contract/identity/rules.ts';
import { cards } from '../../../server/db/schema/index.ts';
import { cardWorks } from '../../../server/features/cards/index.ts';
import { expiryOf, futureCardExpiry } from '../../support/cardExpiry.ts';
import { startTestApp, type TestApp } from '../helpers.ts';
import { activePhysicalCard, cardCall, cardGet, event, home, ledgerReport, newCardholder, orderCard, ship } from './helpers.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const refusedWith = (reason: string) => ({ status: 403, body: { statusCode: StatusCode.NOT_ALLOWED, reason } });

describe('ordering a physical card', () => {
  // The receipt's "Your balance now" is this figure: the flow's balance was read when it opened, and
  // money may come or go before the cardholder confirms.
  it('answers the balance after the fee as home shows it, with what came and what is held since, the same on a retry', async () => {
    const holder = await newCardholder(t.app, t.db, 5000);
    const opened = (await home(t.app, holder.access)).accountOverview.balance;
    expect((await event(t.app, { type: 'deposit', email: holder.email, amountCents: 20000, payer: 'Sunrise Home Care', payee: 'Test Cardholder' })).status).toBe(200);
    const hold = await event(t.app, { type: 'card.authorization', email: holder.email, amountCents: 1240, merchant: 'Save Mart', cardId: holder.virtualCardId });
    expect(hold.status, JSON.stringify(hold.body)).toBe(200);
    const key = randomUUID();

    const ordered = await orderCard(t.app, holder.access, key);

    expect(ordered.body.balanceCents).toBe(opened + 20000 - 1240 - fees.physicalCard.cents);
    expect(ordered.body.balanceCents).toBe((await home(t.app, holder.access)).accountOverview.balance);
    expect((await orderCard(t.app, holder.access, key)).body.balanceCents).toBe(ordered.body.balanceCents);
  });

  it('takes the $5 fee and answers a pending SHIPPED card, its last 4 hidden, arriving in 10 to 15 business days', async () => {
    const holder = await newCardholder(t.app, t.db, 5000);

    const ordered = await orderCard(t.app, holder.access);

    expect(ordered.status).toBe(200);
    expect(ordered.body).toMatchObject({ statusCode: StatusCode.SUCCESS, feeCents: fees.physicalCard.cents });
    expect(ordered.body.card).toEqual({
      id: expect.any(String),
      type: 'PHYSICAL',
      status: 'SHIPPED',
      frozen: false,
      isActive: false,
      isPending: true,
      lastFour: null,
      delivery: { ...cardDeliveryWindow(usCalendarDay(new Date())), shippedOn: null, deliveredOn: null, feeCents: fees.physicalCard.cents },
      replacesCardId: null,
      replacedByCardId: null,
    });
    const after = await home(t.app, holder.access);
    expect(after.accountOverview.balance).toBe(5000 - fees.physicalCard.cents);
    expect(ordered.body.balanceCents).toBe(after.accountOverview.balance);
    expect(after.pendingCard).toEqual(ordered.body.card);
    expect(after.accountOverview.cards).toContainEqual(ordered.body.card);
    expect(after.accountOverview.transactions[0]).toMatchObject({ kind: 'fee', amount: -fees.physicalCard.cents });
    expect(await ledgerReport(t.app)).toMatchObject({ ok: true, problems: [] });
  });

  it('refuses a second physical card while one is on its way (cardPending), and charges nothing', async () => {
    const holder = await newCardholder(t.app, t.db, 5000);
    expect((await orderCard(t.app, holder.access)).status).toBe(200);

    expect(await orderCard(t.app, holder.access)).toMatchObject(refusedWith('cardPending'));
    expect((await home(t.app, holder.access)).accountOverview.balance).toBe(5000 - fees.physicalCard.cents);
  });

  it('refuses a new physical card while one works (a damaged one is replaced instead)', async () => {
    const holder = await newCardholder(t.app, t.db, 5000);
    await activePhysicalCard(t.app, holder.access);

    expect(await orderCard(t.app, holder.access)).toMatchObject(refusedWith('notAllowed'));
  });
});

describe('shipping and activating', () => {
  it('records shipping and delivery (sandbox events) on the pending card', async () => {
    const holder = await newCardholder(t.app, t.db);
    const { card } = (await orderCard(t.app, holder.access)).body;

    const printed = await ship(t.app, card!.id);
    expect(printed).toEqual({ lastFour: expect.stringMatching(/^\d{4}$/), expiry: expect.stringMatching(/^\d{2}\/\d{2}$/) });
    const delivered = await event(t.app, { type: 'card.delivered', cardId: card!.id });
    expect(delivered.status).toBe(200);

    const pending = (await home(t.app, holder.access)).pendingCard!;
    const today = usCalendarDay(new Date());
    expect(pending.delivery).toMatchObject({ shippedOn: today, deliveredOn: today });
    expect(pending.lastFour).toBeNull();
    expect((await event(t.app, { type: 'card.shipped', cardId: card!.id })).body).toMatchObject({ result: 'already_shipped' });
    expect((await event(t.app, { type: 'card.delivered', cardId: card!.id })).body).toMatchObject({ result: 'already_delivered' });
  });

  it('refuses activation before the card ships (notShipped), and when nothing is pending (noPendingCard)', async () => {
    const holder = await newCardholder(t.app, t.db);
    const activation = { lastFourCard: '1234', expiry: futureCardExpiry() };
    expect(await cardCall(t.app, holder.access, '/activate-card', activation)).toMatchObject(refusedWith('noPendingCard'));
    expect(await cardCall(t.app, holder.access, '/verify/card-last-four', { lastFourCard: '1234' })).toMatchObject(refusedWith('noPendingCard'));

    await orderCard(t.app, holder.access);
    expect(await cardCall(t.app, holder.access, '/activate-card', activation)).toMatchObject(refusedWith('notShipped'));
    expect(await cardCall(t.app, holder.access, '/verify/card-last-four', { lastFourCard: '1234' })).toMatchObject(refusedWith('notShipped'));
  });

  it('activates with the printed last 4 and expiry: ACTIVE, working, its last 4 shown, nothing pending; once', async () => {
    const holder = await newCardholder(t.app, t.db);
    const { card } = (await orderCard(t.app, holder.access)).body;
    const printed = await ship(t.app, card!.id);

    expect(await cardCall(t.app, holder.access, '/verify/card-last-four', { lastFourCard: printed.lastFour })).toEqual({ status: 200, body: { statusCode: 0 } });
    const activated = await cardCall(t.app, holder.access, '/activate-card', { lastFourCard: printed.lastFour, expiry: printed.expiry });

    expect(activated.status).toBe(200);
    expect(activated.body.card).toMatchObject({ id: card!.id, status: 'ACTIVE', isActive: true, isPending: false, lastFour: printed.lastFour, delivery: null });
    expect((await home(t.app, holder.access)).pendingCard).toBeNull();
    // An active card cannot be activated again.
    expect(await cardCall(t.app, holder.access, '/activate-card', { lastFourCard: printed.lastFour, expiry: printed.expiry })).toMatchObject(
      refusedWith('noPendingCard'),
    );
  });
});

describe('locking and unlocking', () => {
  it('locks and unlocks a card in use, answering the card; the same request twice changes nothing', async () => {
    const holder = await newCardholder(t.app, t.db);

    const locked = await cardCall(t.app, holder.access, '/card/freeze', { id: holder.virtualCardId });
    expect(locked.status).toBe(200);
    expect(locked.body.card).toMatchObject({ id: holder.virtualCardId, frozen: true, isActive: true });
    expect((await cardCall(t.app, holder.access, '/card/freeze', { id: holder.virtualCardId })).body.card).toEqual(locked.body.card);

    const unlocked = await cardCall(t.app, holder.access, '/card/unfreeze', { id: holder.virtualCardId });
    expect(unlocked.body.card).toEqual({ ...locked.body.card, frozen: false });
    expect((await home(t.app, holder.access)).accountOverview.cards).toContainEqual(unlocked.body.card);
  });

  it('reads a card id in either case (RFC 9562 §4: case insensitive on input) and answers it in lower case', async () => {
    const holder = await newCardholder(t.app, t.db);
    const upper = holder.virtualCardId.toUpperCase();
    expect(upper).not.toBe(holder.virtualCardId);
    expect((await cardCall(t.app, holder.access, '/card/freeze', { id: upper })).body.card).toMatchObject({ id: holder.virtualCardId, frozen: true });
    expect((await cardCall(t.app, holder.access, '/card/unfreeze', { id: upper })).body.card).toMatchObject({ id: holder.virtualCardId, frozen: false });
    expect((await cardGet(t.app, holder.access, `/card/image-url/${upper}`)).body.url).toContain(holder.virtualCardId);
    expect((await cardGet(t.app, holder.access, `/card/details-url/${upper}`)).body.statusCode).toBe(StatusCode.SUCCESS);
    // Found, not 404: a virtual card has no PIN (403), as in lower case.
    const pinForm = (id: string) => cardGet(t.app, holder.access, `/pin-change-form-url?cardId=${id}&pin=card`);
    expect(await pinForm(upper)).toEqual(await pinForm(holder.virtualCardId));
    expect((await pinForm(upper)).status).toBe(403);
  });

  it('refuses to lock or unlock a pending, lost or stopped card (notAllowed)', async () => {
    const holder = await newCardholder(t.app, t.db);
    const pending = (await orderCard(t.app, holder.access)).body.card!;
    expect(await cardCall(t.app, holder.access, '/card/freeze', { id: pending.id })).toMatchObject(refusedWith('notAllowed'));

    const other = await newCardholder(t.app, t.db);
    const physical = await activePhysicalCard(t.app, other.access);
    await cardCall(t.app, other.access, '/card/freeze', { id: physical.id });
    expect((await cardCall(t.app, other.access, '/card/report-lost-stolen', { id: physical.id, status: 'LOST' })).status).toBe(200);
    expect(await cardCall(t.app, other.access, '/card/unfreeze', { id: physical.id })).toMatchObject(refusedWith('notAllowed'));
    expect(await cardCall(t.app, other.access, '/card/freeze', { id: physical.id })).toMatchObject(refusedWith('notAllowed'));
  });
});

describe('a card past its printed expiry', () => {
  it('is refused by the card network from the month after the one printed; through that month it works', async () => {
    const holder = await newCardholder(t.app, t.db, 5000);
    const physical = await activePhysicalCard(t.app, holder.access);
    // Months counted from the day the check uses (todayInEveryState), so the test holds at any hour.
    const today = todayInEveryState();
    const printed = (monthsAgo: number) => expiryOf(new Date(today.getFullYear(), today.getMonth() - monthsAgo, 1));
    const buy = () => event(t.app, { type: 'card.authorization', email: holder.email, amountCents: 100, merchant: 'Save Mart', cardId: physical.id });

    await t.db.update(cards).set({ expiry: printed(0) }).where(eq(cards.id, physical.id));
    expect((await buy()).status).toBe(200);
    await t.db.update(cards).set({ expiry: printed(1) }).where(eq(cards.id, physical.id));
    expect(await buy()).toMatchObject({ status: 409, body: { result: 'card_not_usable' } });
    const atm = await event(t.app, { type: 'atm.withdrawal', email: holder.email, amountCents: 100, cardId: physical.id });
    expect(atm).toMatchObject({ status: 409, body: { result: 'card_not_usable' } });
  });

  it('works until its month is over in every state, the days activation takes it and no later', async () => {
    const holder = await newCardholder(t.app, t.db, 5000);
    const physical = await activePhysicalCard(t.app, holder.access);
    const [{ accountId }] = (await t.db.select({ accountId: cards.accountId }).from(cards).where(eq(cards.id, physical.id))) as [{ accountId: string }];
    await t.db.update(cards).set({ expiry: '11/26' }).where(eq(cards.id, physical.id));
    const works = (now: string) => cardWorks(t.db, { accountId, cardId: physical.id, atm: true }, new Date(now));
    const activationTakes = (now: string) => checkCardExpiry('11/26', todayInEveryState(new Date(now))) === null;

    // 23:59 on November 30 in Honolulu (UTC−10) is 09:59 on December 1 in UTC.
    for (const now of ['2026-11-30T12:00:00Z', '2026-12-01T09:59:59Z']) {
      expect(await works(now), now).toBe('works');
      expect(activationTakes(now), now).toBe(true);
    }
    for (const now of ['2026-12-01T10:00:00Z', '2027-01-15T12:00:00Z']) {
      expect(await works(now), now).toBe('card_not_usable');
      expect(activationTakes(now), now).toBe(false);
    }
  });

  it('is stored only as MM/YY with a real month: the database refuses anything else', async () => {
    const holder = await newCardholder(t.app, t.db, 5000);
    const physical = await activePhysicalCard(t.app, holder.access);
    for (const expiry of ['13/26', '00/26', '1/26', '11/2026', '11-26', '', ' 11/26']) {
      const write = t.db.update(cards).set({ expiry }).where(eq(cards.id, physical.id));
      await expect(write, expiry).rejects.toMatchObject({ cause: { constraint: 'cards_expiry_month_year' } });
    }
    await t.db.update(cards).set({ expiry: '12/99' }).where(eq(cards.id, physical.id));
  });
});

describe('lost or stolen', () => {
  it('blocks the card at once and sends a replacement free of charge; the virtual card keeps working', async () => {
    const holder = await newCardholder(t.app, t.db, 5000);
    const physical = await activePhysicalCard(t.app, holder.access);
    const key = `purchase-${randomUUID()}`;
    const bought = await event(t.app, { type: 'card.authorization', email: holder.email, amountCents: 250, merchant: 'Chevron', cardId: physical.id }, key);
    expect(bought.status).toBe(200);
    const before = (await home(t.app, holder.access)).accountOverview.balance;

    const reported = await cardCall(t.app, holder.access, '/card/report-lost-stolen', { id: physical.id, status: 'STOLEN' });

    expect(reported.status).toBe(200);
    expect(reported.body.card).toMatchObject({ id: physical.id, status: 'STOLEN', isActive: false, replacedByCardId: reported.body.replacement!.id });
    expect(reported.body.replacement).toMatchObject({ type: 'PHYSICAL', status: 'SHIPPED', isPending: true, replacesCardId: physical.id, lastFour: null });
    const after = await home(t.app, holder.access);
    expect(after.accountOverview.balance).toBe(before);
    expect(after.pendingCard).toEqual(reported.body.replacement);
    expect(after.accountOverview.cards.find((card) => card.type === 'VIRTUAL')).toMatchObject({ isActive: true });
    // Blocked for every card and ATM transaction; the virtual card still buys.
    const atm = await event(t.app, { type: 'atm.withdrawal', email: holder.email, amountCents: 100, cardId: physical.id });
    expect(atm).toMatchObject({ status: 409, body: { result: 'card_not_usable' } });
    const purchase = await event(t.app, { type: 'card.authorization', email: holder.email, amountCents: 100, merchant: 'Save Mart', cardId: physical.id });
    expect(purchase).toMatchObject({ status: 409, body: { result: 'card_not_usable' } });
    const online = await event(t.app, { type: 'card.authorization', email: holder.email, amountCents: 100, merchant: 'Online', cardId: holder.virtualCardId });
    expect(online.status).toBe(200);
    // A retry of the purchase made before the report is answered as the first was: one effect.
    const retried = await event(t.app, { type: 'card.authorization', email: holder.email, amountCents: 250, merchant: 'Chevron', cardId: physical.id }, key);
    expect(retried).toEqual({ status: 200, body: { statusCode: 0, result: 'exists', transactionId: bought.body.transactionId } });
  });

  it('answers the same when reported again as the same, and refuses lost → stolen or a virtual card', async () => {
    const holder = await newCardholder(t.app, t.db);
    const physical = await activePhysicalCard(t.app, holder.access);
    const first = await cardCall(t.app, holder.access, '/card/report-lost-stolen', { id: physical.id, status: 'LOST' });

    expect(await cardCall(t.app, holder.access, '/card/report-lost-stolen', { id: physical.id, status: 'LOST' })).toEqual(first);
    expect(await cardCall(t.app, holder.access, '/card/report-lost-stolen', { id: physical.id, status: 'STOLEN' })).toMatchObject(refusedWith('notAllowed'));
    expect(await cardCall(t.app, holder.access, '/card/report-lost-stolen', { id: holder.virtualCardId, status: 'LOST' })).toMatchObject(
      refusedWith('notAllowed'),
    );
  });

  it('makes a card already on its way the replacement (one pending physical card at a time)', async () => {
    const holder = await newCardholder(t.app, t.db, 5000);
    const physical = await activePhysicalCard(t.app, holder.access);
    const replaced = await cardCall(t.app, holder.access, '/card/replace', { id: physical.id }, randomUUID());
    expect(replaced.status).toBe(200);

    const reported = await cardCall(t.app, holder.access, '/card/report-lost-stolen', { id: physical.id, status: 'LOST' });

    expect(reported.status).toBe(200);
    expect(reported.body.card).toMatchObject({ status: 'LOST', isActive: false });
    expect(reported.body.replacement).toEqual(replaced.body.card);
    expect((await home(t.app, holder.access)).accountOverview.cards.filter((card) => card.isPending)).toHaveLength(1);
  });

  it('activating the replacement leaves the lost card blocked, and stopped', async () => {
    const holder = await newCardholder(t.app, t.db);
    const physical = await activePhysicalCard(t.app, holder.access);
    const { replacement } = (await cardCall(t.app, holder.access, '/card/report-lost-stolen', { id: physical.id, status: 'LOST' })).body;
    const printed = await ship(t.app, replacement!.id);

    const activated = await cardCall(t.app, holder.access, '/activate-card', { lastFourCard: printed.lastFour, expiry: printed.expiry });

    expect(activated.body.card).toMatchObject({ id: replacement!.id, status: 'ACTIVE', isActive: true, replacesCardId: physical.id });
    const [old] = await t.db.select().from(cards).where(eq(cards.id, physical.id));
    expect(old).toMatchObject({ status: 'LOST', isActive: false, stoppedAt: expect.any(Date) });
  });
});

describe('replacing a damaged card', () => {
  it('charges the replacement fee; the old card works until the new one ships, then stops', async () => {
    const holder = await newCardholder(t.app, t.db, 5000);
    const physical = await activePhysicalCard(t.app, holder.access);
    const before = (await home(t.app, holder.access)).accountOverview.balance;

    const key = randomUUID();
    const replaced = await cardCall(t.app, holder.access, '/card/replace', { id: physical.id }, key);

    expect(replaced.status).toBe(200);
    // A retry with the card's id in upper case is the same request (RFC 9562 §4): the first answer again.
    expect(await cardCall(t.app, holder.access, '/card/replace', { id: physical.id.toUpperCase() }, key)).toEqual(replaced);
    expect(replaced.body).toMatchObject({ feeCents: fees.cardReplacement.cents, card: { isPending: true, replacesCardId: physical.id } });
    expect((await home(t.app, holder.access)).accountOverview.balance).toBe(before - fees.cardReplacement.cents);
    const stillWorks = await event(t.app, { type: 'atm.withdrawal', email: holder.email, amountCents: 100, cardId: physical.id });
    expect(stillWorks.status).toBe(200);

    await ship(t.app, replaced.body.card!.id);

    const cardsNow = (await home(t.app, holder.access)).accountOverview.cards;
    expect(cardsNow.find((card) => card.id === physical.id)).toMatchObject({ status: 'ACTIVE', isActive: false, replacedByCardId: replaced.body.card!.id });
    const stopped = await event(t.app, { type: 'atm.withdrawal', email: holder.email, amountCents: 100, cardId: physical.id });
    expect(stopped).toMatchObject({ status: 409, body: { result: 'card_not_usable' } });
    // A stopped card cannot be locked, replaced or reported; replacing it is answered with its
    // replacement, on its way until it is activated.
    expect(await cardCall(t.app, holder.access, '/card/freeze', { id: physical.id })).toMatchObject(refusedWith('notAllowed'));
    expect(await cardCall(t.app, holder.access, '/card/replace', { id: physical.id }, randomUUID())).toMatchObject(refusedWith('cardPending'));
    expect(await cardCall(t.app, holder.access, '/card/report-lost-stolen', { id: physical.id, status: 'LOST' })).toMatchObject(refusedWith('notAllowed'));
    expect(await ledgerReport(t.app)).toMatchObject({ ok: true });
  });

  it('a replacement still with the processor cannot be reported (notShipped); lost in the mail once shipped, it is replaced in turn free of charge', async () => {
    const holder = await newCardholder(t.app, t.db, 5000);
    const damaged = await activePhysicalCard(t.app, holder.access);
    const replaced = (await cardCall(t.app, holder.access, '/card/replace', { id: damaged.id }, randomUUID())).body.card!;
    expect(await cardCall(t.app, holder.access, '/card/report-lost-stolen', { id: replaced.id, status: 'LOST' })).toMatchObject(refusedWith('notShipped'));
    const stillWorks = await event(t.app, { type: 'atm.withdrawal', email: holder.email, amountCents: 100, cardId: damaged.id });
    expect(stillWorks.status).toBe(200);

    await ship(t.app, replaced.id);
    const stopped = await event(t.app, { type: 'atm.withdrawal', email: holder.email, amountCents: 100, cardId: damaged.id });
    expect(stopped).toMatchObject({ status: 409, body: { result: 'card_not_usable' } });
    const [old] = await t.db.select().from(cards).where(eq(cards.id, damaged.id));
    expect(old).toMatchObject({ isActive: false, stoppedAt: expect.any(Date) });

    const balance = (await home(t.app, holder.access)).accountOverview.balance;
    const lost = await cardCall(t.app, holder.access, '/card/report-lost-stolen', { id: replaced.id, status: 'LOST' });
    expect(lost.status).toBe(200);
    expect(lost.body.replacement).toMatchObject({ type: 'PHYSICAL', isPending: true, replacesCardId: replaced.id });
    expect((await home(t.app, holder.access)).accountOverview.balance).toBe(balance);
  });

  it('a card ordered and not shipped cannot be reported lost or stolen: no new free card, however often it is tried', async () => {
    const holder = await newCardholder(t.app, t.db, 500);
    const ordered = (await orderCard(t.app, holder.access)).body.card!;
    for (const status of ['STOLEN', 'LOST', 'STOLEN']) {
      expect(await cardCall(t.app, holder.access, '/card/report-lost-stolen', { id: ordered.id, status })).toMatchObject(refusedWith('notShipped'));
    }
    const [account] = await t.db.select({ accountId: cards.accountId }).from(cards).where(eq(cards.id, ordered.id));
    expect(await t.db.select().from(cards).where(eq(cards.accountId, account!.accountId))).toHaveLength(2);
  });

  it('refuses to replace a virtual card, a card on its way or a lost one, charging nothing', async () => {
    const holder = await newCardholder(t.app, t.db, 5000);
    expect(await cardCall(t.app, holder.access, '/card/replace', { id: holder.virtualCardId }, randomUUID())).toMatchObject(refusedWith('notAllowed'));
    const pending = (await orderCard(t.app, holder.access)).body.card!;
    // The card asked about is itself the card on its way.
    expect(await cardCall(t.app, holder.access, '/card/replace', { id: pending.id }, randomUUID())).toMatchObject(refusedWith('cardPending'));

    const other = await newCardholder(t.app, t.db, 5000);
    const physical = await activePhysicalCard(t.app, other.access);
    const balance = (await home(t.app, other.access)).accountOverview.balance;
    // Reported lost in another tab while this one was replacing it as damaged: its free replacement is
    // the card on its way (cardPending), not a card still to report.
    const reported = await cardCall(t.app, other.access, '/card/report-lost-stolen', { id: physical.id, status: 'LOST' });
    expect(await cardCall(t.app, other.access, '/card/replace', { id: physical.id }, randomUUID())).toMatchObject(refusedWith('cardPending'));
    // Once that replacement is activated nothing is on its way: a lost card is not replaced again.
    const printed = await ship(t.app, reported.body.replacement!.id);
    expect((await cardCall(t.app, other.access, '/activate-card', { lastFourCard: printed.lastFour, expiry: printed.expiry })).status).toBe(200);
    expect(await cardCall(t.app, other.access, '/card/replace', { id: physical.id }, randomUUID())).toMatchObject(refusedWith('notAllowed'));
    expect((await home(t.app, other.access)).accountOverview.balance).toBe(balance);
    expect(await ledgerReport(t.app)).toMatchObject({ ok: true });
  });
});

describe('a damaged card replaced from two tabs or devices', () => {
  it('answers the second (another key) that the new card is on its way (cardPending), and charges once', async () => {
    const holder = await newCardholder(t.app, t.db, 5000);
    const damaged = await activePhysicalCard(t.app, holder.access);
    const balance = (await home(t.app, holder.access)).accountOverview.balance;
    expect((await cardCall(t.app, holder.access, '/card/replace', { id: damaged.id }, randomUUID())).status).toBe(200);
    expect(await cardCall(t.app, holder.access, '/card/replace', { id: damaged.id }, randomUUID())).toMatchObject(refusedWith('cardPending'));
    expect((await home(t.app, holder.access)).accountOverview.balance).toBe(balance - fees.cardReplacement.cents);
  });
});

describe("another cardholder's card", () => {
  it('is unknown to every card call (404 {3}), and left as it was', async () => {
    const owner = await newCardholder(t.app, t.db, 5000);
    const stranger = await newCardholder(t.app, t.db, 5000);
    const physical = await activePhysicalCard(t.app, owner.access);
    const notFound = { status: 404, body: { statusCode: StatusCode.NOT_ALLOWED } };

    for (const id of [physical.id, owner.virtualCardId]) {
      expect(await cardCall(t.app, stranger.access, '/card/freeze', { id })).toEqual(notFound);
      expect(await cardCall(t.app, stranger.access, '/card/unfreeze', { id })).toEqual(notFound);
      expect(await cardCall(t.app, stranger.access, '/card/report-lost-stolen', { id, status: 'STOLEN' })).toEqual(notFound);
      expect(await cardCall(t.app, stranger.access, '/card/replace', { id }, randomUUID())).toEqual(notFound);
      expect(await cardCall(t.app, stranger.access, '/commit-pin-change', { cardId: id, pin: 'card' })).toEqual(notFound);
      for (const url of [`/card/image-url/${id}`, `/card/details-url/${id}`, `/pin-change-form-url?cardId=${id}&pin=card`]) {
        const response = await t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { authorization: `Bearer ${stranger.access}` } });
        expect({ status: response.statusCode, body: response.json() }, url).toEqual(notFound);
      }
    }
    expect((await home(t.app, owner.access)).accountOverview.cards).toContainEqual(physical);
    expect((await home(t.app, stranger.access)).accountOverview.balance).toBe(5000);
  });
});

describe('card transactions by the sandbox card network', () => {
  it('refuses purchases and ATM withdrawals with a locked or pending card, and with no card that works', async () => {
    const holder = await newCardholder(t.app, t.db, 5000);
    const pending = (await orderCard(t.app, holder.access)).body.card!;
    const pendingPurchase = await event(t.app, { type: 'card.authorization', email: holder.email, amountCents: 100, merchant: 'Store', cardId: pending.id });
    expect(pendingPurchase).toMatchObject({ status: 409, body: { result: 'card_not_usable' } });
    // An ATM takes a physical card: the virtual one is no use there.
    expect(await event(t.app, { type: 'atm.withdrawal', email: holder.email, amountCents: 100 })).toMatchObject({ status: 409, body: { result: 'card_not_usable' } });

    await cardCall(t.app, holder.access, '/card/freeze', { id: holder.virtualCardId });
    expect(await event(t.app, { type: 'card.authorization', email: holder.email, amountCents: 100, merchant: 'Store' })).toMatchObject({
      status: 409,
      body: { result: 'card_not_usable' },
    });
    await cardCall(t.app, holder.access, '/card/unfreeze', { id: holder.virtualCardId });
    expect((await event(t.app, { type: 'card.authorization', email: holder.email, amountCents: 100, merchant: 'Store' })).status).toBe(200);
    const stranger = await newCardholder(t.app, t.db, 0);
    expect(await event(t.app, { type: 'card.authorization', email: holder.email, amountCents: 100, merchant: 'Store', cardId: stranger.virtualCardId })).toMatchObject({
      status: 404,
      body: { result: 'card_not_found' },
    });
  });

  it('refuses card.shipped for an unknown card or one not pending', async () => {
    const holder = await newCardholder(t.app, t.db);
    expect((await event(t.app, { type: 'card.shipped', cardId: randomUUID() })).status).toBe(404);
    expect(await event(t.app, { type: 'card.shipped', cardId: holder.virtualCardId })).toMatchObject({ status: 409, body: { result: 'not_pending' } });
    expect(await event(t.app, { type: 'card.delivered', cardId: holder.virtualCardId })).toMatchObject({ status: 409, body: { result: 'not_shipped' } });
    expect(await event(t.app, { type: 'card.shipped' })).toMatchObject({ status: 400 });
  });
});
