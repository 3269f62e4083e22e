// @vitest-environment node
/** The sandbox controls exist for testers only: never in production mode. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StatusCode } from '../../contract/statusCodes.ts';
import { readConfig } from '../../server/config.ts';
import { demoCardholder, getHome, startTestApp, type TestApp } from './helpers.ts';

const productionSecret = 'a-production-token-secret-for-tests-only-0123456789';

describe('POST /sandbox/sessions in sandbox mode', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { SANDBOX: 'true' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('signs the cardholder in with a chosen access-token lifetime that then expires', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/sandbox/sessions',
      payload: { email: demoCardholder.email, accessTtlSeconds: 1 },
    });
    expect(response.statusCode).toBe(200);
    const { access } = response.json();

    await new Promise((resolve) => setTimeout(resolve, 1500));

    const home = await getHome(t.app, access);
    expect(home.statusCode).toBe(401);
    expect(home.json()).toEqual({ statusCode: StatusCode.REFRESH_REQUIRED });
  });
});

describe('production mode', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { NODE_ENV: 'production', TOKEN_SECRET: productionSecret } });
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
