/**
 * Bad input never breaks the server: every POST call of the route tables gets at least 300 generated
 * bad bodies (wrong types, unstorable text, impossible dates, deep nesting, huge numbers, malformed
 * JSON), sent with the right kind of token so the body is really read. Every answer must be a 4xx or
 * a success with a statusCode body, the security headers and no stack trace; a 5xx fails. The
 * generator is seeded: a failure names the body, and the same run gives the same bodies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnySchema } from 'yup';
import { allRoutes } from '../../../contract/routes.ts';
import { requestSchemas } from '../../../contract/schemas.ts';
import { fillPath, type Route } from '../../../contract/shared/route.ts';
import { issueCompanionToken } from '../../../server/companionTokens.ts';
import { bearer, demoCardholder, signIn, startTestApp, type TestApp } from '../helpers.ts';

const bodiesPerCall = 300;

/** mulberry32: a small seeded PRNG, so every run sends the same bodies. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T,>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  return { next, pick };
}

const badStrings = [
  '',
  ' ',
  'a\u0000b',
  '\u0000',
  '\uD800',
  'x\uDC00y',
  '\uDBFF\uDBFF',
  '02/30/1990',
  '13/45/2020',
  '00/00/0000',
  '99999-12-31',
  '-000001-01-01T00:00:00Z',
  '+275760-09-13T00:00:00Z',
  '1e309',
  'NaN',
  '<script>alert(1)</script>',
  "'; DROP TABLE users; --",
  '../../etc/passwd',
  '%00',
  '\u202Eevil',
  'ＡＢＣ１２３',
  '😀'.repeat(200),
  'x'.repeat(5000),
];
const badNumbers = [0, -1, 1.5, 2 ** 53, -(2 ** 63), 1e308, Number.MAX_SAFE_INTEGER + 2];

/** A body for a call whose fields are `fields`: mostly its own keys with wrong values, sometimes anything. */
function badBody(rng: ReturnType<typeof random>, fields: string[]): string {
  const value = (depth: number): unknown => {
    const kind = rng.next();
    if (kind < 0.35) return rng.pick(badStrings);
    if (kind < 0.5) return rng.pick(badNumbers);
    if (kind < 0.55) return rng.pick([true, false, null]);
    if (depth > 3) return rng.pick(badStrings);
    if (kind < 0.75) return Array.from({ length: Math.floor(rng.next() * 4) }, () => value(depth + 1));
    return object(depth + 1);
  };
  const object = (depth: number): Record<string, unknown> => {
    const keys = fields.length && rng.next() < 0.8 ? fields : ['__proto__', 'constructor', 'a\u0000', rng.pick(badStrings)];
    return Object.fromEntries(keys.filter(() => rng.next() < 0.85).map((key) => [key, value(depth)]));
  };
  const shape = rng.next();
  if (shape < 0.05) return '{"a":'; // malformed
  if (shape < 0.1) return '['.repeat(5000) + ']'.repeat(5000); // nesting
  if (shape < 0.15) return `{"a":${'{"a":'.repeat(3000)}1${'}'.repeat(3001)}`;
  if (shape < 0.2) return JSON.stringify(value(0));
  return JSON.stringify(object(0));
}

const fieldsOf = (schema: AnySchema | null): string[] => {
  const description = schema?.describe() as { fields?: Record<string, unknown> } | undefined;
  return Object.keys(description?.fields ?? {});
};

let t: TestApp;
const tokens: Record<Route['caller'], string | undefined> = {
  anonymous: undefined,
  accessToken: undefined,
  refreshToken: undefined,
  companionToken: undefined,
};

beforeAll(async () => {
  t = await startTestApp({ env: { SANDBOX: 'true' } });
  const { access, refresh } = await signIn(t.app);
  tokens.accessToken = access;
  tokens.refreshToken = refresh;
  tokens.companionToken = await issueCompanionToken({ uuid: demoCardholder.providersUuid, email: null }, t.config.companionTokenSecret);
});
afterAll(async () => {
  await t?.close();
});

const posts = allRoutes.filter((route) => route.method === 'POST');

describe('generated bad bodies', () => {
  it('cover every POST call of the route tables (control)', () => {
    expect(posts.length).toBeGreaterThanOrEqual(15);
  });

  // RFC 9110 §15.5.1: a request without a body is the client's error, and a generated client may send
  // none (the OpenAPI document says which bodies are required); twelve of these once answered 500.
  // Before the bad bodies below, which end the sessions; sign-out ends its own, so it gets a fresh one.
  it.each(posts.map((route) => [`${route.base}${route.path}`, route] as const))('answer %s without a body with a 4xx or success, never a 5xx', async (_url, route) => {
    const session = route.name === 'signOut' ? await signIn(t.app) : { access: tokens.accessToken, refresh: tokens.refreshToken };
    const token = route.caller === 'accessToken' ? session.access : route.caller === 'refreshToken' ? session.refresh : tokens[route.caller];
    const response = await t.app.inject({
      method: 'POST',
      url: `${route.base}${fillPath(route.path, { id: 'x' })}`,
      headers: { ...(token && bearer(token)), ...(route.idempotent && { 'idempotency-key': 'no-body' }) },
    });
    expect(response.statusCode, response.body).toBeLessThan(500);
    expect(response.json()).toHaveProperty('statusCode', expect.any(Number));
  });

  it.each(posts.map((route, index) => [`${route.base}${route.path}`, route, index] as const))(
    'never answer %s with a 5xx, a stack trace or no statusCode',
    async (_url, route, index) => {
      const rng = random(0xc0ffee + index);
      const fields = fieldsOf(requestSchemas[route.name] ?? null);
      const token = tokens[route.caller];
      for (let sent = 0; sent < bodiesPerCall; sent += 1) {
        const payload = badBody(rng, fields);
        const response = await t.app.inject({
          method: 'POST',
          url: `${route.base}${fillPath(route.path, { id: 'x' })}`,
          headers: { 'content-type': 'application/json', ...(token && bearer(token)), ...(route.idempotent && { 'idempotency-key': `fuzz-${sent}` }) },
          payload,
        });
        const problem = `${response.statusCode} ${response.body.slice(0, 200)} for ${payload.slice(0, 300)}`;
        expect(response.statusCode, problem).toBeLessThan(500);
        expect(response.json(), problem).toHaveProperty('statusCode', expect.any(Number));
        expect(response.body, problem).not.toMatch(/\n\s+at |stack/);
        expect(response.headers['content-security-policy'], problem).toBeTruthy();
      }
    },
    120_000,
  );
});
