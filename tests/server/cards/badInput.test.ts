/**
 * Bad input on every card call answers 4xx with a statusCode, never 5xx (tests/server/fuzz/badBodies.test.ts
 * also sends each POST of the route tables, cards included, hundreds of generated bodies): malformed
 * bodies and queries 400 `{2}`, a well-formed id of no card 404 `{3}`, no token 401 `{104}`.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardsRoutes } from '../../../contract/cards/routes.ts';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import { futureCardExpiry } from '../../support/cardExpiry.ts';
import { startTestApp, type TestApp } from '../helpers.ts';
import { type Cardholder, cardCall, cardGet, newCardholder } from './helpers.ts';

let t: TestApp;
let holder: Cardholder;

beforeAll(async () => {
  t = await startTestApp();
  holder = await newCardholder(t.app, t.db, 5000);
});
afterAll(async () => {
  await t?.close();
});

const badRequest = { status: 400, body: { statusCode: StatusCode.INVALID_PARAMETERS } };
const notFound = { status: 404, body: { statusCode: StatusCode.NOT_ALLOWED } };

const badBodies: Record<string, unknown[]> = {
  '/order-card': [{ extra: 1 }, [], 'text', null],
  '/verify/card-last-four': [{}, { lastFourCard: 1234 }, { lastFourCard: '12a4' }, { lastFourCard: '12345' }, { lastFourCard: '1234', expiry: futureCardExpiry() }],
  '/activate-card': [
    {},
    { lastFourCard: '1234' },
    { lastFourCard: '1234', expiry: '13/30' },
    { lastFourCard: '1234', expiry: '01/20' },
    { lastFourCard: '1234', expiry: '1230' },
    { lastFourCard: '1234', expiry: ['12/30'] },
  ],
  '/card/freeze': [{}, { id: 'x' }, { id: 7 }, { id: `${randomUUID()} ` }, { id: randomUUID(), frozen: true }],
  '/card/unfreeze': [{}, { id: '' }, { id: null }],
  '/card/report-lost-stolen': [{ id: randomUUID() }, { id: randomUUID(), status: 'ACTIVE' }, { id: randomUUID(), status: 'lost' }, { status: 'LOST' }],
  '/card/replace': [{}, { id: 'x' }, { id: randomUUID(), reason: 'damaged' }],
  '/commit-pin-change': [{}, { cardId: randomUUID() }, { cardId: randomUUID(), pin: 'both' }, { cardId: 'x', pin: 'card' }],
};

describe('malformed bodies', () => {
  it('cover every POST card call (control)', () => {
    const posts = Object.values(cardsRoutes).filter((route) => route.method === 'POST').map((route) => route.path);
    expect(Object.keys(badBodies).sort()).toEqual(posts.sort());
  });

  it.each(Object.entries(badBodies))('answer %s with 400 {2}', async (path, bodies) => {
    for (const body of bodies) expect(await cardCall(t.app, holder.access, path, body, randomUUID()), JSON.stringify(body)).toEqual(badRequest);
    const broken = await t.app.inject({
      method: 'POST',
      url: `/api/v1${path}`,
      headers: { authorization: `Bearer ${holder.access}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      payload: '{"id":',
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toHaveProperty('statusCode');
  });
});

describe('malformed queries and paths', () => {
  it.each([
    '/card/image-url/not-a-card',
    `/card/image-url/${randomUUID()}0`,
    '/card/details-url/%00',
    '/card/details-url/x',
    '/pin-change-form-url',
    `/pin-change-form-url?cardId=${randomUUID()}`,
    `/pin-change-form-url?cardId=${randomUUID()}&pin=debit`,
    `/pin-change-form-url?cardId=${randomUUID()}&pin=card&locale=fr`,
    `/pin-change-form-url?cardId=${randomUUID()}&pin=card&extra=1`,
    '/pin-change-form-url?cardId=x&pin=card',
  ])('answer GET %s with 400 {2}', async (url) => {
    expect(await cardGet(t.app, holder.access, url)).toEqual(badRequest);
  });
});

describe('a well-formed id of no card', () => {
  it('answers 404 {3} on every card call that names a card', async () => {
    const id = randomUUID();
    expect(await cardCall(t.app, holder.access, '/card/freeze', { id })).toEqual(notFound);
    expect(await cardCall(t.app, holder.access, '/card/unfreeze', { id })).toEqual(notFound);
    expect(await cardCall(t.app, holder.access, '/card/report-lost-stolen', { id, status: 'LOST' })).toEqual(notFound);
    expect(await cardCall(t.app, holder.access, '/card/replace', { id }, randomUUID())).toEqual(notFound);
    expect(await cardCall(t.app, holder.access, '/commit-pin-change', { cardId: id, pin: 'atm' })).toEqual(notFound);
    expect(await cardGet(t.app, holder.access, `/card/image-url/${id}`)).toEqual(notFound);
    expect(await cardGet(t.app, holder.access, `/card/details-url/${id}`)).toEqual(notFound);
    expect(await cardGet(t.app, holder.access, `/pin-change-form-url?cardId=${id}&pin=card&locale=es`)).toEqual(notFound);
  });
});

describe('without an access token', () => {
  it.each(Object.values(cardsRoutes).map((route) => [`${route.method} ${route.path}`, route] as const))('%s answers 401 {104}', async (_name, route) => {
    const url = `/api/v1${route.path.replace('{id}', randomUUID())}`;
    const response = await t.app.inject({ method: route.method, url, ...(route.method === 'POST' && { payload: {} }) });
    expect({ status: response.statusCode, body: response.json() }).toEqual({ status: 401, body: { statusCode: StatusCode.SIGN_IN_REQUIRED } });
  });
});
