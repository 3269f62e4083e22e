/**
 * Card test set-up: a new cardholder of our own per test (an active virtual card, an optional
 * balance, a session through the sandbox), and the card calls as the app makes them.
 */
import { randomInt, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { Card, CardRefusal } from '../../../contract/cards/types.ts';
import type { HomeAnswer } from '../../../contract/home/types.ts';
import type { TooManyAnswer } from '../../../contract/shared/answers.ts';
import type { Database } from '../../../server/db/database.ts';
import { accounts, cards, users } from '../../../server/db/schema/index.ts';
import { futureCardExpiry } from '../../support/cardExpiry.ts';
import { bearer, getHome } from '../helpers.ts';

export type Cardholder = { email: string; access: string; userId: string; accountId: string; virtualCardId: string; virtualCardExpiry: string };

/** A cardholder with an active virtual card and `depositCents` deposited (through the ledger), signed in. */
export async function newCardholder(app: FastifyInstance, db: Database, depositCents = 5000): Promise<Cardholder> {
  // Phones are unique among users: 8 million of them, so a file's few dozen cardholders never collide.
  const email = `card.${randomUUID()}@example.com`;
  const [user] = await db
    .insert(users)
    .values({ email, firstName: 'Test', lastName: 'Cardholder', phone: `559${randomInt(2_000_000, 10_000_000)}`, street1: '1 Main St', city: 'Fresno', state: 'CA', zip: '93721' })
    .returning({ id: users.id });
  const [account] = await db
    .insert(accounts)
    .values({ userId: user!.id, prn: `4999${String(randomInt(0, 100_000_000)).padStart(8, '0')}` })
    .returning({ id: accounts.id });
  // In date whenever the suite runs: a card past its expiry does not work (server/features/cards/queries.ts).
  const virtualCardExpiry = futureCardExpiry();
  const [virtual] = await db
    .insert(cards)
    .values({ accountId: account!.id, type: 'VIRTUAL', status: 'ACTIVE', isActive: true, lastFour: '1234', expiry: virtualCardExpiry })
    .returning({ id: cards.id });
  if (depositCents > 0) {
    const deposit = await event(app, { type: 'deposit', email, amountCents: depositCents, payer: 'Employer', payee: 'TEST CARDHOLDER' });
    expect(deposit.status, JSON.stringify(deposit.body)).toBe(200);
  }
  const session = await app.inject({ method: 'POST', url: '/sandbox/sessions', payload: { email, accessTtlSeconds: 3600 } });
  expect(session.statusCode, session.body).toBe(200);
  return {
    email,
    access: session.json<{ access: string }>().access,
    userId: user!.id,
    accountId: account!.id,
    virtualCardId: virtual!.id,
    virtualCardExpiry,
  };
}

/** Any card call's answer, read without narrowing on its statusCode first (tests assert the fields). */
export type CardCallAnswer = {
  statusCode: number;
  reason?: CardRefusal['reason'];
  attemptsLeft?: number;
  retryAfterSeconds?: TooManyAnswer['retryAfterSeconds'];
  card?: Card;
  replacement?: Card;
  feeCents?: number;
  balanceCents?: number;
  url?: string;
};

/** POST /api/v1<path> as the app sends it: JSON, the bearer token, and an Idempotency-Key when given. */
export async function cardCall(
  app: FastifyInstance,
  access: string,
  path: string,
  payload: unknown,
  idempotencyKey?: string,
): Promise<{ status: number; body: CardCallAnswer }> {
  const response = await app.inject({
    method: 'POST',
    url: `/api/v1${path}`,
    headers: { ...bearer(access), 'content-type': 'application/json', ...(idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey }) },
    payload: JSON.stringify(payload),
  });
  return { status: response.statusCode, body: response.json<CardCallAnswer>() };
}

export async function cardGet(app: FastifyInstance, access: string, url: string): Promise<{ status: number; body: CardCallAnswer }> {
  const response = await app.inject({ method: 'GET', url: `/api/v1${url}`, headers: bearer(access) });
  return { status: response.statusCode, body: response.json<CardCallAnswer>() };
}

export const orderCard = (app: FastifyInstance, access: string, key: string = randomUUID()) => cardCall(app, access, '/order-card', {}, key);

export type EventAnswer = { statusCode: number; result: string; lastFour?: string; expiry?: string; cardId?: string; transactionId?: string };

/** POST /sandbox/events. */
export async function event(app: FastifyInstance, body: object, idempotencyKey?: string): Promise<{ status: number; body: EventAnswer }> {
  const response = await app.inject({ method: 'POST', url: '/sandbox/events', payload: body, ...(idempotencyKey && { headers: { 'idempotency-key': idempotencyKey } }) });
  return { status: response.statusCode, body: response.json<EventAnswer>() };
}

/** The processor ships the card: what is printed on it. */
export async function ship(app: FastifyInstance, cardId: string): Promise<{ lastFour: string; expiry: string }> {
  const shipped = await event(app, { type: 'card.shipped', cardId });
  expect(shipped.status, JSON.stringify(shipped.body)).toBe(200);
  return { lastFour: shipped.body.lastFour!, expiry: shipped.body.expiry! };
}

export async function home(app: FastifyInstance, access: string): Promise<HomeAnswer> {
  const response = await getHome(app, access);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<HomeAnswer>();
}

export async function ledgerReport(app: FastifyInstance): Promise<{ ok: boolean; problems: string[] }> {
  return (await app.inject({ method: 'GET', url: '/sandbox/ledger/report' })).json<{ report: { ok: boolean; problems: string[] } }>().report;
}

/** A card ordered, shipped and activated: an active physical card. */
export async function activePhysicalCard(app: FastifyInstance, access: string): Promise<Card> {
  const ordered = await orderCard(app, access);
  expect(ordered.status, JSON.stringify(ordered.body)).toBe(200);
  const printed = await ship(app, ordered.body.card!.id);
  const activated = await cardCall(app, access, '/activate-card', { lastFourCard: printed.lastFour, expiry: printed.expiry });
  expect(activated.status, JSON.stringify(activated.body)).toBe(200);
  return activated.body.card!;
}
