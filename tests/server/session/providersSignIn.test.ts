/** POST /providers/sign-in: the companion app's access token opens a card session for its linked user. */
import { eq } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import { companionTokenAudience, companionTokenIssuer, issueCompanionToken } from '../../../server/companionTokens.ts';
import { users } from '../../../server/db/schema/index.ts';
import { bearer, demoCardholder, demoUser, homeStatus, startTestApp, type TestApp, unlock } from '../helpers.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const demoCompanionUser = { uuid: demoCardholder.providersUuid, email: demoCardholder.email };

function providersSignIn(headers: Record<string, string> = {}, payload?: unknown) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/providers/sign-in',
    headers,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

/** A companion-style token with chosen claims and key, to forge what the real issuer would not sign. */
function companionToken(options: { secret?: Uint8Array; audience?: string; issuer?: string; expiresAt?: number; alg?: string } = {}) {
  return new SignJWT({ email: demoCardholder.email })
    .setProtectedHeader({ alg: options.alg ?? 'HS256' })
    .setSubject(demoCardholder.providersUuid)
    .setIssuer(options.issuer ?? companionTokenIssuer)
    .setAudience(options.audience ?? companionTokenAudience)
    .setExpirationTime(options.expiresAt ?? Math.floor(Date.now() / 1000) + 600)
    .sign(options.secret ?? t.config.companionTokenSecret);
}

describe('POST /api/v1/providers/sign-in', () => {
  it('signs the linked cardholder in: the tokens open GET /home and unlock with her code', async () => {
    const token = await issueCompanionToken(demoCompanionUser, t.config.companionTokenSecret);

    const response = await providersSignIn(bearer(token));

    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body).toEqual({
      statusCode: StatusCode.SUCCESS,
      access: expect.any(String),
      refresh: expect.any(String),
      isInternal: false,
      mustResetUnlockCode: false,
    });
    const home = await homeStatus(t.app, body.access);
    expect(home.status).toBe(200);
    expect(home.body.prn).toBe('400012345678');
    expect((await unlock(t.app, body.refresh)).status).toBe(200);
  });

  it('accepts an empty JSON object as the body', async () => {
    const token = await issueCompanionToken(demoCompanionUser, t.config.companionTokenSecret);

    const response = await providersSignIn(bearer(token), {});

    expect(response.statusCode).toBe(200);
    expect(response.json().statusCode).toBe(StatusCode.SUCCESS);
  });

  it('answers isInternal true for an internal cardholder', async () => {
    const user = await demoUser(t.db);
    await t.db.update(users).set({ isInternal: true }).where(eq(users.id, user.id));
    try {
      const token = await issueCompanionToken(demoCompanionUser, t.config.companionTokenSecret);
      expect((await providersSignIn(bearer(token))).json().isInternal).toBe(true);
    } finally {
      await t.db.update(users).set({ isInternal: false }).where(eq(users.id, user.id));
    }
  });

  it.each([
    ['no Authorization header', async () => ({}), 'Bearer'],
    ['an empty bearer token', async () => ({ authorization: 'Bearer ' }), 'Bearer'],
    ['a token that is not a JWT', async () => bearer('not-a-token')],
    ['the card API\'s own session secret as key', async () => bearer(await companionToken({ secret: t.config.tokenSecret }))],
    ['a token signed with another key', async () => bearer(await companionToken({ secret: new TextEncoder().encode('an-attacker-chosen-secret-of-32-chars-or-more') }))],
    ['an expired token', async () => bearer(await companionToken({ expiresAt: Math.floor(Date.now() / 1000) - 60 }))],
    ['a token for another audience', async () => bearer(await companionToken({ audience: 'providers-card-app' }))],
    ['a token from another issuer', async () => bearer(await companionToken({ issuer: 'providers-card-api' }))],
    ['an HS512 token (algorithm pinned to HS256)', async () => bearer(await companionToken({ alg: 'HS512' }))],
    ['an unsigned token (alg none)', async () => bearer(`${unsignedToken()}.`)],
  ])('rejects %s with 401 INVALID_CREDENTIALS and no tokens', async (_name, headers, challenge = 'Bearer error="invalid_token"') => {
    const response = await providersSignIn(await headers());

    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ statusCode: StatusCode.INVALID_CREDENTIALS });
    // RFC 6750 §3: a token sent and refused is invalid_token; none sent, only the challenge.
    expect(response.headers['www-authenticate']).toBe(challenge);
  });

  it('rejects a valid token whose companion user has no card account with 403 NOT_ALLOWED', async () => {
    const token = await issueCompanionToken({ uuid: crypto.randomUUID(), email: null }, t.config.companionTokenSecret);

    const response = await providersSignIn(bearer(token));

    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ statusCode: StatusCode.NOT_ALLOWED });
  });

  it('rejects a body with keys with 400 INVALID_PARAMETERS', async () => {
    const token = await issueCompanionToken(demoCompanionUser, t.config.companionTokenSecret);

    const response = await providersSignIn(bearer(token), { uuid: demoCardholder.providersUuid });

    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ statusCode: StatusCode.INVALID_PARAMETERS });
  });
});

/** `{"alg":"none"}` header and the demo claims, without a signature. */
function unsignedToken(): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const claims = { sub: demoCardholder.providersUuid, iss: companionTokenIssuer, aud: companionTokenAudience, exp: Math.floor(Date.now() / 1000) + 600 };
  return `${encode({ alg: 'none' })}.${encode(claims)}`;
}

describe('POST /providers/sign-in after an unlock-code lockout', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('signs in but does not end the lockout: the answer says the unlock code must be reset', async () => {
    const user = await demoUser(t.db);
    await t.db.update(users).set({ unlockFailures: 5 }).where(eq(users.id, user.id));
    const token = await issueCompanionToken({ uuid: demoCardholder.providersUuid, email: null }, t.config.companionTokenSecret);

    const response = await t.app.inject({ method: 'POST', url: '/api/v1/providers/sign-in', headers: bearer(token) });

    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ statusCode: StatusCode.SUCCESS, mustResetUnlockCode: true });
    const [after] = await t.db.select({ unlockFailures: users.unlockFailures }).from(users).where(eq(users.id, user.id));
    expect(after!.unlockFailures).toBe(5);
  });
});
