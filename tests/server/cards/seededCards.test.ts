/**
 * Seeded cards cover every state of a card's life (docs/sandbox.md "Seeded cardholders"), and seeding
 * again changes nothing. (Migration 0010, which carried older cards over: tests/server/migrations.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Card } from '../../../contract/cards/types.ts';
import { fees } from '../../../contract/shared/fees.ts';
import { cards } from '../../../server/db/schema/index.ts';
import { cardStateCardholders, demoCardholder, seedDemoData } from '../../../server/seed.ts';
import { signIn, startTestApp, type TestApp } from '../helpers.ts';
import { cardCall, home } from './helpers.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const cardsOf = async (email: string): Promise<Card[]> => {
  const { access } = await signIn(t.app, { email, password: demoCardholder.password });
  return (await home(t.app, access)).accountOverview.cards;
};
const physical = (all: Card[]) => all.filter((card) => card.type === 'PHYSICAL');
const seeded = (state: string) => cardStateCardholders.find((cardholder) => cardholder.state === state)!;

describe('the seeded cardholders', () => {
  it('the demo cardholder has an active virtual card and an active physical card', async () => {
    const all = await cardsOf(demoCardholder.email);
    expect(all.map((card) => [card.type, card.status, card.isActive, card.isPending])).toEqual([
      ['VIRTUAL', 'ACTIVE', true, false],
      ['PHYSICAL', 'ACTIVE', true, false],
    ]);
  });

  it('Ana has a shipped card to activate with the documented last 4 and expiry', async () => {
    const ana = seeded('shipped');
    const [card] = physical(await cardsOf(ana.email));
    expect(card).toMatchObject({ status: 'SHIPPED', isPending: true, lastFour: null, delivery: { shippedOn: expect.any(String), deliveredOn: null, feeCents: fees.physicalCard.cents } });

    const { access } = await signIn(t.app, { email: ana.email, password: demoCardholder.password });
    const activated = await cardCall(t.app, access, '/activate-card', { lastFourCard: ana.physical.lastFour, expiry: ana.physical.expiry });
    expect(activated.body.card).toMatchObject({ status: 'ACTIVE', lastFour: ana.physical.lastFour });
  });

  it('Luis has a locked card, which he can unlock', async () => {
    const [card] = physical(await cardsOf(seeded('locked').email));
    expect(card).toMatchObject({ status: 'ACTIVE', isActive: true, frozen: true, lastFour: seeded('locked').physical.lastFour });
  });

  it('Grace has a lost card and its free replacement ordered, not shipped yet', async () => {
    const [lost, replacement] = physical(await cardsOf(seeded('lost').email));
    expect(lost).toMatchObject({ status: 'LOST', isActive: false, replacedByCardId: replacement!.id });
    expect(replacement).toMatchObject({ status: 'SHIPPED', isPending: true, replacesCardId: lost!.id, delivery: { shippedOn: null, feeCents: 0 } });
  });

  it('Marcus has a stolen card and its replacement shipped, ready to activate', async () => {
    const [stolen, replacement] = physical(await cardsOf(seeded('stolen').email));
    expect(stolen).toMatchObject({ status: 'STOLEN', isActive: false, replacedByCardId: replacement!.id });
    expect(replacement).toMatchObject({ isPending: true, replacesCardId: stolen!.id, delivery: { shippedOn: expect.any(String), feeCents: 0 } });
  });

  it('GET /sandbox/cards shows what is printed on a cardholder\'s cards (a tester types it to activate)', async () => {
    const marcus = seeded('stolen');
    const replacement = 'replacement' in marcus ? marcus.replacement : undefined;
    const response = await t.app.inject({ method: 'GET', url: `/sandbox/cards?email=${encodeURIComponent(marcus.email.toUpperCase())}` });
    expect(response.statusCode).toBe(200);
    const printed = response.json<{ cards: { type: string; status: string; lastFour: string; expiry: string }[] }>().cards;
    expect(printed.filter((card) => card.type === 'PHYSICAL')).toEqual([
      expect.objectContaining({ status: 'STOLEN', lastFour: marcus.physical.lastFour, expiry: marcus.physical.expiry }),
      expect.objectContaining({ status: 'SHIPPED', isPending: true, lastFour: replacement?.lastFour, expiry: replacement?.expiry }),
    ]);
    expect((await t.app.inject({ method: 'GET', url: '/sandbox/cards?email=nobody@example.com' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/sandbox/cards' })).statusCode).toBe(400);
  });

  it('seeding again changes no card', async () => {
    const before = await t.db.select().from(cards).orderBy(cards.id);
    await seedDemoData(t.db, t.config);
    expect(await t.db.select().from(cards).orderBy(cards.id)).toEqual(before);
  });
});
