/**
 * Malformed bodies on the unauthenticated entry points: each answers a plain INVALID_PARAMETERS
 * statusCode, never an error page, a stack trace or a server file path. Then what HTTP (RFC 9110) says
 * of any call: an empty body, a 401's challenge, a method the call does not take.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StatusCode } from '../../contract/shared/statusCodes.ts';
import {
  bearer,
  demoCardholder,
  demoUser,
  signIn,
  startTestApp,
  type TestApp,
  unlock,
  unlockFailures,
} from './helpers.ts';

let t: TestApp;
let refresh: string;

beforeAll(async () => {
  t = await startTestApp();
  ({ refresh } = await signIn(t.app));
});
afterAll(async () => {
  await t?.close();
});

type BadBody = { name: string; payload: string; contentType?: string; status?: 400 | 413 | 415 };

const json = (value: unknown) => JSON.stringify(value);
const validEmail = demoCardholder.email;
const validPassword = demoCardholder.password;

const badSignInBodies: BadBody[] = [
  { name: 'an empty object', payload: json({}) },
  { name: 'a missing password', payload: json({ email: validEmail }) },
  { name: 'a missing email', payload: json({ password: validPassword }) },
  { name: 'an empty email and password', payload: json({ email: '', password: '' }) },
  { name: 'a number as password', payload: json({ email: validEmail, password: 2026 }) },
  { name: 'an array as email', payload: json({ email: [validEmail], password: validPassword }) },
  { name: 'an object as email', payload: json({ email: { $ne: '' }, password: validPassword }) },
  { name: 'null as password', payload: json({ email: validEmail, password: null }) },
  { name: 'a malformed email', payload: json({ email: 'demo-at-providers.test', password: validPassword }) },
  { name: 'a 10,000 character password', payload: json({ email: validEmail, password: 'x'.repeat(10_000) }) },
  { name: 'an unknown extra key', payload: json({ email: validEmail, password: validPassword, isInternal: true }) },
  { name: 'a JSON array', payload: json([validEmail, validPassword]) },
  { name: 'JSON null', payload: 'null' },
  { name: 'a body that is not JSON', payload: '{"email": "demo@providers.test", "password": ' },
  // RFC 9110 §15.5.16: a media type the call does not take.
  { name: 'a form-encoded body', payload: `email=${validEmail}&password=${validPassword}`, contentType: 'application/x-www-form-urlencoded', status: 415 },
  { name: 'a text body', payload: json({ email: validEmail, password: validPassword }), contentType: 'text/plain', status: 415 },
  { name: 'a whole body over 16 KB', payload: json({ email: validEmail, password: 'x'.repeat(17 * 1024) }), status: 413 },
];

const badUnlockBodies: BadBody[] = [
  { name: 'an empty object', payload: json({}) },
  { name: 'an empty unlock code', payload: json({ unlockCode: '' }) },
  { name: 'a number as unlock code', payload: json({ unlockCode: 2580 }) },
  { name: 'an array as unlock code', payload: json({ unlockCode: ['2580'] }) },
  { name: 'a three digit unlock code', payload: json({ unlockCode: '258' }) },
  { name: 'a five digit unlock code', payload: json({ unlockCode: '25800' }) },
  { name: 'letters in the unlock code', payload: json({ unlockCode: '25a0' }) },
  { name: 'a 10,000 character unlock code', payload: json({ unlockCode: '1'.repeat(10_000) }) },
  { name: 'an unknown extra key', payload: json({ unlockCode: '2580', attemptsLeft: 99 }) },
  { name: 'a body that is not JSON', payload: 'unlockCode=2580' , contentType: 'application/json' },
  { name: 'a whole body over 16 KB', payload: json({ unlockCode: '1'.repeat(17 * 1024) }), status: 413 },
];

function expectPlainInvalidParameters(response: LightMyRequestResponse, status: number) {
  expect(response.statusCode).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  const body = response.json();
  expect(body.statusCode).toBeTypeOf('number');
  expect(body).toEqual({ statusCode: StatusCode.INVALID_PARAMETERS });
  expect(response.body).not.toMatch(/stack/i);
  expect(response.body).not.toMatch(/\bat /);
  expect(response.body).not.toMatch(/\/(work|home|usr|tmp|node_modules|server)\/|\.ts\b|\.js\b/);
}

describe('POST /api/v1/sign-in with a bad body', () => {
  it.each(badSignInBodies)('answers INVALID_PARAMETERS for $name', async ({ payload, contentType, status = 400 }) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/sign-in',
      headers: { 'content-type': contentType ?? 'application/json' },
      payload,
    });

    expectPlainInvalidParameters(response, status);
  });

  it('checks that the 16 KB case really is over the body limit', () => {
    const oversized = badSignInBodies.find((body) => body.status === 413)!;
    expect(Buffer.byteLength(oversized.payload)).toBeGreaterThan(16 * 1024);
  });
});

describe('POST /api/v1/refresh-tokens with a bad body', () => {
  it.each(badUnlockBodies)('answers INVALID_PARAMETERS for $name', async ({ payload, contentType, status = 400 }) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/refresh-tokens',
      headers: { ...bearer(refresh), 'content-type': contentType ?? 'application/json' },
      payload,
    });

    expectPlainInvalidParameters(response, status);
  });

  it('does not count rejected bodies as wrong unlock codes, nor spend the refresh token', async () => {
    // Runs after the table above: none of those requests may have cost an unlock attempt.
    const user = await demoUser(t.db);
    expect(await unlockFailures(t.db, user.id)).toBe(0);

    const answer = await unlock(t.app, refresh);
    expect(answer.status).toBe(200);
    expect(answer.body.statusCode).toBe(StatusCode.SUCCESS);
  });
});

describe('input no handler should see, refused in one place', () => {
  const refusedAlike = (response: LightMyRequestResponse, status = 400) => {
    expect(response.statusCode, response.body).toBe(status);
    expect(response.json()).toHaveProperty('statusCode');
    expect(response.body).not.toMatch(/\n\s+at |stack/);
    expect(response.headers['content-security-policy']).toBeTruthy();
  };

  it.each([
    ['a NUL in a string', json({ email: 'demo\u0000@providers.test', password: validPassword })],
    ['a NUL in a key', json({ email: validEmail, password: validPassword, 'x\u0000': 1 })],
    ['a lone high surrogate', json({ email: validEmail, password: 'pass\uD800word' })],
    ['a lone low surrogate', json({ email: validEmail, password: '\uDC00password' })],
    ['nesting 5,000 levels deep', `{"email":${'['.repeat(5000)}${']'.repeat(5000)}}`],
  ])('answers 400 {2} to %s', async (_name, payload) => {
    const response = await t.app.inject({ method: 'POST', url: '/api/v1/sign-in', headers: { 'content-type': 'application/json' }, payload });
    refusedAlike(response);
    expect(response.json()).toEqual({ statusCode: StatusCode.INVALID_PARAMETERS });
  });

  it('answers 400 {2} to a body that is not UTF-8, whatever charset it names (RFC 8259 §8.1), and reads UTF-8 as sent', async () => {
    // "Café" in Latin-1: the é is the lone byte 0xE9, which UTF-8 cannot decode.
    const latin1 = Buffer.from(`{"email":"${validEmail}","password":"Caf\u00e9 2026 x"}`, 'latin1');
    for (const contentType of ['application/json', 'application/json; charset=iso-8859-1']) {
      const response = await t.app.inject({ method: 'POST', url: '/api/v1/sign-in', headers: { 'content-type': contentType }, payload: latin1 });
      refusedAlike(response);
      expect(response.json()).toEqual({ statusCode: StatusCode.INVALID_PARAMETERS });
    }
    // The same text in UTF-8 is a body like any other: a wrong password.
    const utf8 = Buffer.from(latin1.toString('latin1'), 'utf8');
    const response = await t.app.inject({ method: 'POST', url: '/api/v1/sign-in', headers: { 'content-type': 'application/json' }, payload: utf8 });
    expect(response.statusCode, response.body).toBe(401);
  });

  it('keeps a surrogate pair (an emoji) as text', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/v1/sign-in', payload: { email: validEmail, password: 'pass😀word' } });
    expect(response.statusCode).toBe(401);
  });

  it('answers 400 {2} to a NUL in the query', async () => {
    refusedAlike(await t.app.inject({ method: 'GET', url: '/cms/config/faq?e=%00' }));
    refusedAlike(await t.app.inject({ method: 'GET', url: '/cms/config/fa%00q' }));
  });

  it('answers a URL that cannot be decoded with 400, the security headers and without echoing it', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/%E0%A4%A/<script>' });
    refusedAlike(response);
    expect(response.body).not.toContain('script');
  });

  it('stores an analytics event sent with an impossible time at its arrival instead of failing', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/analytics/events',
      payload: { events: [{ name: 'screen_view', at: '-100000-01-01T00:00:00.000Z', sessionId: 's1', properties: {} }] },
    });
    expect(response.statusCode, response.body).toBe(200);
  });
});

describe('what HTTP says of requests any call may get', () => {
  // RFC 9110 §8.6: a zero length is no content, whatever Content-Type says. Generated clients send the
  // type on every POST.
  it('reads a JSON body of no bytes as no body: signing out takes none', async () => {
    const session = await signIn(t.app);

    const response = await t.app.inject({ method: 'POST', url: '/api/v1/sign-out', headers: { ...bearer(session.refresh), 'content-type': 'application/json' }, payload: '' });

    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ statusCode: StatusCode.SUCCESS });
    expect((await unlock(t.app, session.refresh)).status).toBe(401);
  });

  // RFC 9110 §11.6.1: a 401 MUST carry a challenge; RFC 6750 §3 names a token that does not work.
  it.each([
    ['no token', {}, 'Bearer'],
    ['a token that is not one', bearer('not-a-token'), 'Bearer error="invalid_token"'],
    // RFC 6750 §3.1: another scheme sent no bearer token to call invalid; a malformed bearer token is one.
    ['Basic credentials', { authorization: 'Basic Zm9vOmJhcg==' }, 'Bearer'],
    ['a malformed bearer token', { authorization: 'Bearer a b' }, 'Bearer error="invalid_token"'],
    ['a bearer token too long to be one', { authorization: `bearer ${'a'.repeat(5_000)}` }, 'Bearer error="invalid_token"'],
    ['the scheme with no token', { authorization: 'Bearer' }, 'Bearer'],
  ])('challenges a call with %s on 401', async (_case, headers, challenge) => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/home', headers });

    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toBe(challenge);
  });

  // RFC 9110 §11.1: the scheme's name is matched without case.
  it.each(['bearer', 'BEARER', 'Bearer  '])('takes a good token sent as %j <token>', async (scheme) => {
    const session = await signIn(t.app);
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/home', headers: { authorization: `${scheme} ${session.access}` } });

    expect(response.statusCode, response.body).toBe(200);
  });

  it('does not call a good token invalid when something else was wrong: a wrong unlock code', async () => {
    const session = await signIn(t.app);
    const wrong = await t.app.inject({ method: 'POST', url: '/api/v1/refresh-tokens', headers: bearer(session.refresh), payload: { unlockCode: '9753' } });

    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['www-authenticate']).toBe('Bearer');
    expect((await unlock(t.app, session.refresh)).status).toBe(200);
  });

  it('finds an account by a punycode address: sign-in answers it as any unknown address, not as a bad request', async () => {
    const answer = await t.app.inject({ method: 'POST', url: '/api/v1/sign-in', payload: { email: 'ana@xn--exmple-qta.com', password: 'not-the-password-1' } });

    expect(answer.statusCode).toBe(401);
  });

  it('challenges a wrong password on 401 too, and no other answer', async () => {
    const wrong = await t.app.inject({ method: 'POST', url: '/api/v1/sign-in', payload: { email: validEmail, password: 'not-the-password-1' } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['www-authenticate']).toBe('Bearer');
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).headers['www-authenticate']).toBeUndefined();
  });

  // RFC 9110 §15.5.6: 405 MUST name the methods the resource takes; §9.3.7: OPTIONS names them.
  it.each([
    ['DELETE', '/api/v1/home', 'GET, HEAD, OPTIONS'],
    ['GET', '/api/v1/sign-in', 'POST, OPTIONS'],
    ['PUT', '/cms/config/anything', 'GET, HEAD, OPTIONS'],
    // Every method Node reads, not only the common seven.
    ['TRACE', '/api/v1/home', 'GET, HEAD, OPTIONS'],
    ['PROPFIND', '/api/v1/sign-in', 'POST, OPTIONS'],
  ] as const)('answers %s %s 405 with Allow: %s', async (method, url, allow) => {
    const response = await t.app.inject({ method, url });

    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe(allow);
    expect(response.json()).toEqual({ statusCode: StatusCode.INVALID_PARAMETERS });
    expect(response.headers['content-security-policy']).toBeTruthy();
  });

  it('answers OPTIONS of a call 204 with Allow, and a path that is no call 404 whatever the method', async () => {
    const options = await t.app.inject({ method: 'OPTIONS', url: '/api/v1/sign-in' });
    expect(options.statusCode).toBe(204);
    expect(options.headers.allow).toBe('POST, OPTIONS');
    for (const method of ['GET', 'DELETE', 'OPTIONS'] as const) {
      const nowhere = await t.app.inject({ method, url: '/api/v1/no-such-call' });
      expect(nowhere.statusCode, method).toBe(404);
      expect(nowhere.headers.allow).toBeUndefined();
    }
  });
});
