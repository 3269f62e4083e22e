// @vitest-environment node
import { SignJWT } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AnalyticsEvent } from '../../contract/api.ts';
import { StatusCode } from '../../contract/statusCodes.ts';
import { analyticsEvents } from '../../server/db/schema.ts';
import { bearer, demoUser, signIn, startTestApp, type TestApp } from './helpers.ts';

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

function event(name: string, properties: Record<string, unknown> = {}, at = '2026-03-01T12:00:00.000Z'): AnalyticsEvent {
  return { name, at, properties };
}

function sendEvents(events: unknown, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'POST', url: '/api/v1/analytics/events', headers, payload: { events } });
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
});
