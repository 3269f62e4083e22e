/**
 * A fresh cardholder with a working physical card, set up through the real calls (so a spec that
 * locks, reports or sets a PIN never disturbs the seeded cardholders other specs use in parallel):
 * an account opened, money deposited, a card ordered, shipped (sandbox event) and activated.
 */
import { expect, type APIRequestContext } from '@playwright/test';
import type { Card } from '../../contract/cards/types.ts';
import type { HomeAnswer } from '../../contract/home/types.ts';
import type { Applicant } from '../pages/identity/RegisterPage.ts';
import { openAccountViaApi } from './accounts.ts';
import { getHome, type Tokens } from './api.ts';

export type CardholderWithCard = { applicant: Applicant; tokens: Tokens; physical: Card; virtual: Card };

const device = () => ({ Fingerprint: crypto.randomUUID(), 'Device-UUID': crypto.randomUUID() });

/** A call of the card API as the cardholder. */
export async function asCardholder(request: APIRequestContext, tokens: Tokens, method: 'GET' | 'POST', path: string, data?: unknown, headers: Record<string, string> = {}) {
  const response = await request.fetch(`/api/v1${path}`, {
    method,
    headers: { ...device(), ...headers, Authorization: `Bearer ${tokens.access}`, ...(data ? { 'content-type': 'application/json' } : {}) },
    data,
  });
  return { status: response.status(), body: await response.json() };
}

/** POST /sandbox/events: the world moving (a deposit, a purchase, a card shipped). */
export async function sandboxEvent(request: APIRequestContext, event: Record<string, unknown>) {
  const response = await request.post('/sandbox/events', { data: event, headers: { 'content-type': 'application/json' } });
  return { status: response.status(), body: await response.json() };
}

/** A store asks to charge the card: the processor's answer (200 held, 409 refused). */
export const purchaseWith = (request: APIRequestContext, email: string, cardId: string) =>
  sandboxEvent(request, { type: 'card.authorization', email, cardId, amountCents: 1250, merchant: 'Save Mart' });

export async function cardholderWithCard(request: APIRequestContext): Promise<CardholderWithCard> {
  const { applicant, tokens } = await openAccountViaApi(request);
  const deposit = await sandboxEvent(request, { type: 'deposit', email: applicant.email, amountCents: 20_000, payer: 'Valley Foods', payee: `${applicant.firstName} ${applicant.lastName}` });
  expect(deposit.status, 'the deposit lands').toBe(200);
  const ordered = await asCardholder(request, tokens, 'POST', '/order-card', {}, { 'Idempotency-Key': crypto.randomUUID() });
  expect(ordered.status, 'the card is ordered').toBe(200);
  const shipped = await sandboxEvent(request, { type: 'card.shipped', cardId: ordered.body.card.id });
  expect(shipped.status, 'the card ships').toBe(200);
  const { lastFour, expiry } = shipped.body as { lastFour: string; expiry: string };
  expect((await asCardholder(request, tokens, 'POST', '/verify/card-last-four', { lastFourCard: lastFour })).status).toBe(200);
  const activated = await asCardholder(request, tokens, 'POST', '/activate-card', { lastFourCard: lastFour, expiry });
  expect(activated.status, 'the card is activated').toBe(200);
  const home: HomeAnswer = await getHome(request, tokens.access);
  const physical = home.accountOverview.cards.find((card) => card.type === 'PHYSICAL')!;
  const virtual = home.accountOverview.cards.find((card) => card.type === 'VIRTUAL')!;
  expect(physical).toMatchObject({ status: 'ACTIVE', isActive: true, frozen: false, lastFour });
  return { applicant, tokens, physical, virtual };
}
