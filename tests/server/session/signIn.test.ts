import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import { demoCardholder, demoCredentials, demoUser, startTestApp, type TestApp } from '../helpers.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

function signInRequest(payload: unknown) {
  return t.app.inject({ method: 'POST', url: '/api/v1/sign-in', payload: payload as object });
}

describe('POST /api/v1/sign-in', () => {
  it('accepts the demo credentials and answers SUCCESS with an access JWT, a refresh token and isInternal false', async () => {
    const response = await signInRequest({ email: demoCardholder.email, password: demoCardholder.password });

    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const body = response.json();
    expect(body.statusCode).toBe(StatusCode.SUCCESS);
    expect(body.isInternal).toBe(false);
    expect(body.access).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(body.refresh).toMatch(/^[\w-]{32,}$/);
    expect(body.refresh).not.toBe(body.access);
  });

  it('issues an HS256 access token for the cardholder with audience, issuer and a future expiry', async () => {
    const body = (await signInRequest(demoCredentials)).json();
    const user = await demoUser(t.db);

    expect(decodeProtectedHeader(body.access).alg).toBe('HS256');
    const claims = decodeJwt(body.access);
    expect(claims.sub).toBe(user.id);
    expect(claims.aud).toBe('providers-card-app');
    expect(claims.iss).toBe('providers-card-api');
    expect(claims.sid).toEqual(expect.any(String));
    expect(claims.jti).toEqual(expect.any(String));
    const nowSeconds = Date.now() / 1000;
    expect(claims.exp).toBeGreaterThan(nowSeconds);
    expect(claims.exp).toBeLessThanOrEqual(nowSeconds + t.config.accessTokenTtl + 5);
  });

  it('starts a new session on every sign-in (different tokens each time)', async () => {
    const first = (await signInRequest(demoCredentials)).json();
    const second = (await signInRequest(demoCredentials)).json();

    expect(second.refresh).not.toBe(first.refresh);
    expect(decodeJwt(second.access).sid).not.toBe(decodeJwt(first.access).sid);
  });

  it('treats the email address case-insensitively', async () => {
    const response = await signInRequest({ email: 'DEMO@Providers.TEST', password: demoCardholder.password });

    expect(response.statusCode).toBe(200);
    expect(response.json().statusCode).toBe(StatusCode.SUCCESS);
    expect(response.json().access).toEqual(expect.any(String));
  });

  it('treats the password case-sensitively', async () => {
    const response = await signInRequest({ email: demoCardholder.email, password: demoCardholder.password.toLowerCase() });

    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ statusCode: StatusCode.INVALID_CREDENTIALS });
  });

  it('rejects a wrong password with 401 INVALID_CREDENTIALS and no tokens', async () => {
    const response = await signInRequest({ email: demoCardholder.email, password: 'Providers2025' });

    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ statusCode: StatusCode.INVALID_CREDENTIALS });
  });

  it('rejects an unknown email exactly like a wrong password (no account enumeration)', async () => {
    const unknown = await signInRequest({ email: 'nobody@providers.test', password: demoCardholder.password });
    const wrongPassword = await signInRequest({ email: demoCardholder.email, password: 'not-the-password' });

    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual({ statusCode: StatusCode.INVALID_CREDENTIALS });
    expect(unknown.body).toBe(wrongPassword.body);
  });
});
