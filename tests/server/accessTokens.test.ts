/**
 * The access guard on account calls: a missing, forged or foreign token answers SIGN_IN_REQUIRED;
 * only a genuine token that has run out answers REFRESH_REQUIRED (the app then asks for the code).
 */
import { decodeJwt, SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { StatusCode } from '../../contract/shared/statusCodes.ts';
import { createSessions } from '../../server/sessions.ts';
import { bearer, getHome, signIn, startTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
/** Claims of a real, live session: forged tokens below reuse them so only the forgery differs. */
let claims: { sub: string; sid: string };
let genuineAccess: string;

beforeAll(async () => {
  t = await startTestApp();
  ({ access: genuineAccess } = await signIn(t.app));
  const decoded = decodeJwt(genuineAccess);
  claims = { sub: String(decoded.sub), sid: String(decoded.sid) };
});
afterAll(async () => {
  await t?.close();
});

const nowSeconds = () => Math.floor(Date.now() / 1000);

function token(options: {
  secret?: Uint8Array;
  alg?: string;
  audience?: string;
  issuer?: string;
  expiresAt?: number;
}): Promise<string> {
  return new SignJWT({ sid: claims.sid })
    .setProtectedHeader({ alg: options.alg ?? 'HS256' })
    .setSubject(claims.sub)
    .setAudience(options.audience ?? 'providers-card-app')
    .setIssuer(options.issuer ?? 'providers-card-api')
    .setIssuedAt()
    .setExpirationTime(options.expiresAt ?? nowSeconds() + 600)
    .sign(options.secret ?? t.config.tokenSecret);
}

async function expectHomeAnswer(access: string | undefined, statusCode: number) {
  const response = await getHome(t.app, access);
  expect(response.statusCode).toBe(401);
  expect(response.json()).toEqual({ statusCode });
}

describe('access tokens on GET /api/v1/home', () => {
  it('lets a genuine token through (control for the cases below)', async () => {
    const response = await getHome(t.app, await token({}));
    expect(response.statusCode).toBe(200);
    expect(response.json().statusCode).toBe(StatusCode.SUCCESS);
  });

  it('answers 401 SIGN_IN_REQUIRED without an Authorization header', async () => {
    await expectHomeAnswer(undefined, StatusCode.SIGN_IN_REQUIRED);
  });

  it('answers SIGN_IN_REQUIRED for a token in a non-Bearer scheme', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/home', headers: { authorization: `Token ${genuineAccess}` } });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ statusCode: StatusCode.SIGN_IN_REQUIRED });
  });

  it('answers SIGN_IN_REQUIRED for a token that is not a JWT', async () => {
    await expectHomeAnswer('not-a-token', StatusCode.SIGN_IN_REQUIRED);
  });

  it('answers SIGN_IN_REQUIRED for a token signed with another secret', async () => {
    const forged = await token({ secret: new TextEncoder().encode('an-attacker-chosen-secret-of-32-chars-or-more') });
    await expectHomeAnswer(forged, StatusCode.SIGN_IN_REQUIRED);
  });

  it('answers SIGN_IN_REQUIRED for an unsigned token (alg none)', async () => {
    const unsigned = new UnsecuredJWT({ sid: claims.sid })
      .setSubject(claims.sub)
      .setAudience('providers-card-app')
      .setIssuer('providers-card-api')
      .setExpirationTime(nowSeconds() + 600)
      .encode();
    await expectHomeAnswer(unsigned, StatusCode.SIGN_IN_REQUIRED);
  });

  it('answers SIGN_IN_REQUIRED for a genuine token whose payload was edited', async () => {
    const [header, , signature] = genuineAccess.split('.');
    const payload = Buffer.from(JSON.stringify({ ...decodeJwt(genuineAccess), sub: crypto.randomUUID() })).toString('base64url');
    await expectHomeAnswer(`${header}.${payload}.${signature}`, StatusCode.SIGN_IN_REQUIRED);
  });

  it('answers SIGN_IN_REQUIRED for a token signed with the right secret but another algorithm (HS512)', async () => {
    await expectHomeAnswer(await token({ alg: 'HS512' }), StatusCode.SIGN_IN_REQUIRED);
  });

  it('answers SIGN_IN_REQUIRED for a token issued for another audience', async () => {
    await expectHomeAnswer(await token({ audience: 'some-other-app' }), StatusCode.SIGN_IN_REQUIRED);
  });

  it('answers SIGN_IN_REQUIRED for a token from another issuer', async () => {
    await expectHomeAnswer(await token({ issuer: 'some-other-api' }), StatusCode.SIGN_IN_REQUIRED);
  });

  it('answers 401 REFRESH_REQUIRED for a genuine token that has expired', async () => {
    const sessions = createSessions(t.db, t.config);
    const expired = await sessions.issueAccessToken({ userId: claims.sub, familyId: claims.sid }, -60);
    await expectHomeAnswer(expired, StatusCode.REFRESH_REQUIRED);
  });

  it('answers SIGN_IN_REQUIRED, not REFRESH_REQUIRED, for an expired token with a forged signature', async () => {
    const forgedExpired = await token({
      secret: new TextEncoder().encode('an-attacker-chosen-secret-of-32-chars-or-more'),
      expiresAt: nowSeconds() - 60,
    });
    await expectHomeAnswer(forgedExpired, StatusCode.SIGN_IN_REQUIRED);
  });

  it('guards GET /api/v1/user the same way', async () => {
    const missing = await t.app.inject({ method: 'GET', url: '/api/v1/user' });
    const forged = await t.app.inject({ method: 'GET', url: '/api/v1/user', headers: bearer(await token({ audience: 'x' })) });

    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toEqual({ statusCode: StatusCode.SIGN_IN_REQUIRED });
    expect(forged.statusCode).toBe(401);
    expect(forged.json()).toEqual({ statusCode: StatusCode.SIGN_IN_REQUIRED });
  });
});

describe('access token lifetime from configuration', () => {
  let short: TestApp;

  beforeAll(async () => {
    short = await startTestApp({ env: { ACCESS_TOKEN_TTL: '10' } });
  });
  afterAll(async () => {
    await short?.close();
  });

  it('works while fresh and answers REFRESH_REQUIRED once ACCESS_TOKEN_TTL has passed', async () => {
    // The server's clock is moved, not waited for: a slow machine cannot let the token run out early.
    vi.useFakeTimers({ now: Date.now(), toFake: ['Date'] });
    try {
      const { access } = await signIn(short.app);
      const expiresAtMs = decodeJwt(access).exp! * 1000;
      expect(expiresAtMs - Date.now()).toBeLessThanOrEqual(10_000);
      expect((await getHome(short.app, access)).statusCode).toBe(200);

      vi.setSystemTime(expiresAtMs + 100);

      const response = await getHome(short.app, access);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ statusCode: StatusCode.REFRESH_REQUIRED });
    } finally {
      vi.useRealTimers();
    }
  });
});
