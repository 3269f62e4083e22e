import { SignJWT } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AnalyticsEvent } from '../../../contract/analytics/types.ts';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import { analyticsEvents } from '../../../server/db/schema/index.ts';
import { analyticsLimit } from '../../../server/attemptLimits.ts';
import { bearer, demoUser, postFrom, signIn, startTestApp, type TestApp } from '../helpers.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await t.db.delete(analyticsEvents);
});

const sessionId = 'session-7f3a';

function event(name: string, properties: Record<string, unknown> = {}, at = '2026-03-01T12:00:00.000Z'): AnalyticsEvent {
  return { name, at, sessionId, properties };
}

function sendEvents(events: unknown, headers: Record<string, string> = {}) {
  return sendBatch({ events }, headers);
}

function sendBatch(batch: object, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'POST', url: '/api/v1/analytics/events', headers, payload: batch });
}

async function storedEvents() {
  return t.db.select().from(analyticsEvents).orderBy(analyticsEvents.name);
}

describe('POST /api/v1/analytics/events', () => {
  it('stores every event of a batch with its name, time and properties', async () => {
    const response = await sendEvents([
      event('home_viewed', { tab: 'activity' }),
      event('card_frozen', { cardType: 'VIRTUAL' }, '2026-03-01T12:05:30.000Z'),
    ]);

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ statusCode: StatusCode.SUCCESS });
    const rows = await storedEvents();
    expect(rows.map(({ name, properties, occurredAt }) => ({ name, properties, at: occurredAt.toISOString() }))).toEqual([
      { name: 'card_frozen', properties: { cardType: 'VIRTUAL' }, at: '2026-03-01T12:05:30.000Z' },
      { name: 'home_viewed', properties: { tab: 'activity' }, at: '2026-03-01T12:00:00.000Z' },
    ]);
  });

  it('attributes events to the signed-in cardholder and the device', async () => {
    const { access } = await signIn(t.app);
    const user = await demoUser(t.db);

    await sendEvents([event('home_viewed')], { ...bearer(access), 'device-uuid': 'device-1234' });

    const [row] = await storedEvents();
    expect(row).toMatchObject({ userId: user.id, deviceUuid: 'device-1234' });
  });

  it('stores events without a user when no token is sent', async () => {
    await sendEvents([event('sign_in_viewed')]);

    const [row] = await storedEvents();
    expect(row).toMatchObject({ name: 'sign_in_viewed', userId: null, deviceUuid: null });
  });

  it('does not attribute events to a user named by a forged token', async () => {
    const user = await demoUser(t.db);
    const forged = await new SignJWT({ sid: crypto.randomUUID() })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.id)
      .setAudience('providers-card-app')
      .setIssuer('providers-card-api')
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode('an-attacker-chosen-secret-of-32-chars-or-more'));

    await sendEvents([event('home_viewed')], bearer(forged));

    const [row] = await storedEvents();
    expect(row!.userId).toBeNull();
  });

  it('accepts a batch of exactly 50 events', async () => {
    const response = await sendEvents(Array.from({ length: 50 }, (_, index) => event(`event_${index}`)));

    expect(response.statusCode).toBe(200);
    expect(await storedEvents()).toHaveLength(50);
  });

  it('rejects a batch of 51 events with 400 INVALID_PARAMETERS and stores none of them', async () => {
    const response = await sendEvents(Array.from({ length: 51 }, (_, index) => event(`event_${index}`)));

    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ statusCode: StatusCode.INVALID_PARAMETERS });
    expect(await storedEvents()).toHaveLength(0);
  });

  it('rejects an event without a name and stores nothing of that batch', async () => {
    const response = await sendEvents([event('fine'), { at: '2026-03-01T12:00:00.000Z', properties: {} }]);

    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ statusCode: StatusCode.INVALID_PARAMETERS });
    expect(await storedEvents()).toHaveLength(0);
  });

  it('rejects an event name longer than 80 characters', async () => {
    const response = await sendEvents([event('x'.repeat(81))]);

    expect(response.statusCode).toBe(400);
    expect(await storedEvents()).toHaveLength(0);
  });

  it('accepts an empty batch without storing anything', async () => {
    const response = await sendEvents([]);

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ statusCode: StatusCode.SUCCESS });
    expect(await storedEvents()).toHaveLength(0);
  });

  it('stores each event with its analytics session and the batch user properties on every row', async () => {
    const userProperties = { 'experiment.virtualCards': true, registrationWave: 'ebt_rewards_test_group', visits: 3 };
    const response = await sendBatch({
      events: [event('home_viewed'), { ...event('card_frozen'), sessionId: 'session-8b21' }],
      userProperties,
    });

    expect(response.statusCode, response.body).toBe(200);
    const rows = await storedEvents();
    expect(rows.map(({ name, sessionId, userProperties }) => ({ name, sessionId, userProperties }))).toEqual([
      { name: 'card_frozen', sessionId: 'session-8b21', userProperties },
      { name: 'home_viewed', sessionId, userProperties },
    ]);
  });

  it('stores empty user properties when the batch has none', async () => {
    await sendEvents([event('home_viewed')]);

    const [row] = await storedEvents();
    expect(row!.userProperties).toEqual({});
  });

  it('redacts tokens, card numbers and email addresses in string properties before storing them', async () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.c2lnbmF0dXJlLXNpZ25hdHVyZQ';
    await sendBatch({
      events: [event('route_visited', { route: '/home', query: { next: `/cards?token=${jwt}` }, note: 'card 4111 1111 1111 1111', search: 'help for maria@example.com' })],
      userProperties: { lastSearch: '123-45-6789', cohort: 'b' },
    });

    const [row] = await storedEvents();
    expect(row!.properties).toEqual({ route: '/home', query: { next: '/cards?token=[redacted]' }, note: 'card [redacted]', search: 'help for [redacted]' });
    expect(row!.userProperties).toEqual({ lastSearch: '[redacted]', cohort: 'b' });
  });

  it.each([
    ['an event without a sessionId', { events: [{ name: 'home_viewed', at: '2026-03-01T12:00:00.000Z', properties: {} }] }],
    ['a sessionId longer than 64 characters', { events: [{ ...event('home_viewed'), sessionId: 's'.repeat(65) }] }],
    ['a numeric sessionId', { events: [{ ...event('home_viewed'), sessionId: 42 }] }],
    ['nested user properties', { events: [event('home_viewed')], userProperties: { experiment: { virtualCards: true } } }],
    ['a null user property', { events: [event('home_viewed')], userProperties: { cohort: null } }],
    ['user properties as an array', { events: [event('home_viewed')], userProperties: ['a'] }],
    [
      '31 user properties',
      { events: [event('home_viewed')], userProperties: Object.fromEntries(Array.from({ length: 31 }, (_, i) => [`p${i}`, i])) },
    ],
  ])('rejects %s with 400 INVALID_PARAMETERS and stores nothing', async (_name, batch) => {
    const response = await sendBatch(batch);

    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ statusCode: StatusCode.INVALID_PARAMETERS });
    expect(await storedEvents()).toHaveLength(0);
  });

  it('accepts exactly 30 user properties', async () => {
    const userProperties = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`p${i}`, i]));
    const response = await sendBatch({ events: [event('home_viewed')], userProperties });

    expect(response.statusCode).toBe(200);
    const [row] = await storedEvents();
    expect(row!.userProperties).toEqual(userProperties);
  });
});

describe('analytics batches per client', () => {
  it('answers a device past its limit 429 {201} and stores nothing of its batch; another device from the same address is still stored', async () => {
    const client = { ip: '10.40.50.60', device: 'analytics-flood-01' };
    const batch = { events: [event('route.visit')] };
    for (let i = 0; i < analyticsLimit.perDevice.limit; i += 1) expect((await postFrom(t.app, '/analytics/events', batch, client)).statusCode).toBe(200);
    await t.db.delete(analyticsEvents);

    const refused = await postFrom(t.app, '/analytics/events', batch, client);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ statusCode: StatusCode.INVALID_MFA_LIMIT, retryAfterSeconds: expect.any(Number) });
    expect(await storedEvents()).toEqual([]);

    expect((await postFrom(t.app, '/analytics/events', batch, { ...client, device: 'analytics-other-02' })).statusCode).toBe(200);
    expect(await storedEvents()).toHaveLength(1);
  });
});

describe('analytics redaction by key and content, and signed-out sessions', () => {
  it('stores no code, unlock code or password typed beside one, whatever its key', async () => {
    const response = await sendEvents([event('form_error', { pw: 'hunter2', field: '582913', values: { email: 'a@b.co', password: 'x' } })]);
    expect(response.statusCode).toBe(200);
    const [stored] = await storedEvents();
    expect(JSON.stringify(stored!.properties)).not.toMatch(/hunter2|582913|a@b\.co/);
  });

  it('drops events sent with a signed-out session', async () => {
    const { access } = await signIn(t.app);
    const signedOut = await t.app.inject({ method: 'POST', url: '/api/v1/sign-out', headers: bearer(access), payload: {} });
    expect(signedOut.statusCode).toBe(200);

    const response = await sendEvents([event('screen_view')], bearer(access));
    expect(response.json()).toEqual({ statusCode: StatusCode.SUCCESS });
    expect(await storedEvents()).toEqual([]);
  });
});
