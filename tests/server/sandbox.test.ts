/** The sandbox controls exist for testers only: never in production mode. */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { StatusCode } from '../../contract/shared/statusCodes.ts';
import { readConfig } from '../../server/config.ts';
import type { ExperimentFlags } from '../../contract/experiments/types.ts';
import { analyticsEvents, errorReports } from '../../server/db/schema/index.ts';
import { demoCardholder, getHome, productionEnv, startTestApp, type TestApp } from './helpers.ts';

describe('POST /sandbox/sessions in sandbox mode', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { SANDBOX: 'true' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('signs the cardholder in with a chosen access-token lifetime that then expires', async () => {
    // The server's clock is moved past the lifetime rather than waited for.
    vi.useFakeTimers({ now: Date.now(), toFake: ['Date'] });
    try {
      const response = await t.app.inject({
        method: 'POST',
        url: '/sandbox/sessions',
        payload: { email: demoCardholder.email, accessTtlSeconds: 1 },
      });
      expect(response.statusCode).toBe(200);
      const { access } = response.json();

      vi.setSystemTime(Date.now() + 1500);

      const home = await getHome(t.app, access);
      expect(home.statusCode).toBe(401);
      expect(home.json()).toEqual({ statusCode: StatusCode.REFRESH_REQUIRED });
    } finally {
      vi.useRealTimers();
    }
  });

  it('ends an access token at once on POST /sandbox/sessions/expire, leaving the next one of its session alive', async () => {
    const session = await t.app.inject({
      method: 'POST',
      url: '/sandbox/sessions',
      payload: { email: demoCardholder.email, accessTtlSeconds: 3600 },
    });
    const { access, refresh } = session.json();
    expect((await getHome(t.app, access)).statusCode).toBe(200);

    const expire = await t.app.inject({ method: 'POST', url: '/sandbox/sessions/expire', payload: { access } });
    expect(expire.statusCode).toBe(200);
    const home = await getHome(t.app, access);
    expect(home.statusCode).toBe(401);
    expect(home.json()).toEqual({ statusCode: StatusCode.REFRESH_REQUIRED });

    const renewed = await t.app.inject({
      method: 'POST',
      url: '/api/v1/refresh-tokens',
      headers: { authorization: `Bearer ${refresh}` },
      payload: { unlockCode: demoCardholder.unlockCode },
    });
    expect(renewed.statusCode).toBe(200);
    expect((await getHome(t.app, renewed.json().access)).statusCode).toBe(200);
  });

  it('answers 404 for a token that is not a live access token', async () => {
    const expire = await t.app.inject({ method: 'POST', url: '/sandbox/sessions/expire', payload: { access: 'not-a-token' } });
    expect(expire.statusCode).toBe(404);
    expect(expire.json()).toEqual({ statusCode: StatusCode.NOT_ALLOWED });
  });
});

const flagsOn: ExperimentFlags = { virtualCards: true, directDeposit: true, cashLoadMap: true, showNewDebitDetails: true };
const flagsOff: ExperimentFlags = { virtualCards: false, directDeposit: false, cashLoadMap: false, showNewDebitDetails: false };

describe('sandbox readers and experiment controls', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { SANDBOX: 'true' } });
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(async () => {
    await t.db.delete(analyticsEvents);
    await t.db.delete(errorReports);
    await t.app.inject({ method: 'DELETE', url: '/sandbox/experiments' });
  });

  const get = (url: string) => t.app.inject({ method: 'GET', url });
  const putExperiment = (payload: unknown) => t.app.inject({ method: 'PUT', url: '/sandbox/experiments', payload: payload as object });

  /** One batch per event, a millisecond apart, so "newest" is the order they were sent in. */
  async function sendEvents(names: string[]) {
    for (const name of names) {
      const event = { name, at: '2026-03-01T12:00:00.000Z', sessionId: 's1', properties: {} };
      await t.app.inject({ method: 'POST', url: '/api/v1/analytics/events', payload: { events: [event] } });
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }

  it('lists analytics events newest first, filtered by name and limited', async () => {
    await sendEvents(['home_viewed', 'card_frozen', 'home_viewed', 'home_viewed']);

    const all = await get('/sandbox/analytics-events');
    expect(all.statusCode).toBe(200);
    expect(all.json().statusCode).toBe(StatusCode.SUCCESS);
    expect(all.json().events.map((event: { name: string }) => event.name)).toEqual(['home_viewed', 'home_viewed', 'card_frozen', 'home_viewed']);

    const homeViews = (await get('/sandbox/analytics-events?name=home_viewed&limit=2')).json().events;
    expect(homeViews).toHaveLength(2);
    expect(homeViews[0]).toMatchObject({ name: 'home_viewed', sessionId: 's1', properties: {}, userProperties: {} });
    expect(Date.parse(homeViews[0].receivedAt)).toBeGreaterThan(Date.parse(homeViews[1].receivedAt));
  });

  it('answers at most 50 analytics events by default', async () => {
    const events = Array.from({ length: 50 }, (_, i) => ({ name: `event_${i}`, at: '2026-03-01T12:00:00.000Z', sessionId: 's1', properties: {} }));
    await t.app.inject({ method: 'POST', url: '/api/v1/analytics/events', payload: { events } });
    await sendEvents(['newest']);

    const answered = (await get('/sandbox/analytics-events')).json().events;
    expect(answered).toHaveLength(50);
    expect(answered[0].name).toBe('newest');
  });

  it('lists error reports newest first, limited', async () => {
    for (const message of ['first', 'second', 'third']) {
      const report = { level: 'error', message, at: '2026-03-01T12:00:00.000Z', context: {} };
      await t.app.inject({ method: 'POST', url: '/api/v1/error-reports', payload: { reports: [report] } });
      await new Promise((resolve) => setTimeout(resolve, 2));
    }

    const response = await get('/sandbox/error-reports?limit=2');
    expect(response.statusCode).toBe(200);
    expect(response.json().statusCode).toBe(StatusCode.SUCCESS);
    expect(response.json().reports.map((report: { message: string }) => report.message)).toEqual(['third', 'second']);
  });

  it.each([
    ['/sandbox/analytics-events?limit=0', { invalid: ['limit'] }],
    ['/sandbox/analytics-events?limit=501', { invalid: ['limit'] }],
    ['/sandbox/analytics-events?limit=ten', { invalid: ['limit'] }],
    ['/sandbox/error-reports?limit=-1', { invalid: ['limit'] }],
    ['/sandbox/error-reports?order=asc', { unexpected: ['order'] }],
  ])('rejects %s with 400 INVALID_PARAMETERS, naming the field', async (url, named) => {
    const response = await get(url);

    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ statusCode: StatusCode.INVALID_PARAMETERS, ...named });
  });

  it('sets, replaces, shows and removes the experiment config that GET /api/v1/experiments answers', async () => {
    expect((await get('/sandbox/experiments')).json()).toEqual({ statusCode: StatusCode.SUCCESS, everyone: null, internal: null });
    expect((await get('/api/v1/experiments')).statusCode).toBe(404);

    expect((await putExperiment({ audience: 'everyone', flags: flagsOff })).json()).toEqual({ statusCode: StatusCode.SUCCESS });
    expect((await putExperiment({ audience: 'everyone', flags: { ...flagsOff, virtualCards: true } })).statusCode).toBe(200);
    expect((await putExperiment({ audience: 'internal', flags: flagsOn })).statusCode).toBe(200);

    expect((await get('/sandbox/experiments')).json()).toEqual({
      statusCode: StatusCode.SUCCESS,
      everyone: { ...flagsOff, virtualCards: true },
      internal: flagsOn,
    });
    expect((await get('/api/v1/experiments?isInternal=false')).json().flags).toEqual({ ...flagsOff, virtualCards: true });
    expect((await get('/api/v1/experiments?isInternal=true')).json().flags).toEqual(flagsOn);

    const removed = await t.app.inject({ method: 'DELETE', url: '/sandbox/experiments' });
    expect(removed.json()).toEqual({ statusCode: StatusCode.SUCCESS });
    expect((await get('/api/v1/experiments?isInternal=true')).json()).toEqual({ statusCode: StatusCode.NOT_ALLOWED });
  });

  it.each([
    ['an unknown audience', { audience: 'beta', flags: flagsOn }, { invalid: ['audience'] }],
    ['a missing flag', { audience: 'everyone', flags: { virtualCards: true, directDeposit: true, cashLoadMap: true } }, { invalid: ['flags.showNewDebitDetails'] }],
    ['an extra flag', { audience: 'everyone', flags: { ...flagsOn, snapback: true } }, { unexpected: ['flags.snapback'] }],
    ['a flag as a string', { audience: 'everyone', flags: { ...flagsOn, cashLoadMap: 'true' } }, { invalid: ['flags.cashLoadMap'] }],
    ['no flags', { audience: 'everyone' }, { invalid: ['flags'] }],
  ])('rejects an experiment config with %s, naming the field, and keeps none', async (_name, payload, named) => {
    const response = await putExperiment(payload);

    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ statusCode: StatusCode.INVALID_PARAMETERS, ...named });
    expect((await get('/sandbox/experiments')).json()).toMatchObject({ everyone: null, internal: null });
  });
});

describe('production mode', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: productionEnv });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('has no sandbox routes', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/sandbox/sessions',
      payload: { email: demoCardholder.email, accessTtlSeconds: 3600 },
    });

    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ statusCode: StatusCode.NOT_ALLOWED });
  });

  it.each([
    ['GET', '/sandbox/analytics-events'],
    ['GET', '/sandbox/error-reports'],
    ['GET', '/sandbox/experiments'],
    ['DELETE', '/sandbox/experiments'],
  ] as const)('has no %s %s', async (method, url) => {
    const response = await t.app.inject({ method, url });

    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ statusCode: StatusCode.NOT_ALLOWED });
  });

  it('refuses to start without a TOKEN_SECRET', () => {
    expect(() => readConfig({ NODE_ENV: 'production', WEB_ROOT: '' })).toThrow(/TOKEN_SECRET/);
  });

  it('refuses a TOKEN_SECRET shorter than 32 characters', () => {
    expect(() => readConfig({ NODE_ENV: 'production', TOKEN_SECRET: 'short', WEB_ROOT: '' })).toThrow(/TOKEN_SECRET/);
  });

  it('does not accept tokens signed with the sandbox key', async () => {
    const sandbox = await startTestApp({ env: { SANDBOX: 'true' } });
    try {
      const response = await sandbox.app.inject({
        method: 'POST',
        url: '/sandbox/sessions',
        payload: { email: demoCardholder.email, accessTtlSeconds: 600 },
      });
      const home = await getHome(t.app, response.json().access);
      expect(home.statusCode).toBe(401);
      expect(home.json()).toEqual({ statusCode: StatusCode.SIGN_IN_REQUIRED });
    } finally {
      await sandbox.close();
    }
  });
});
