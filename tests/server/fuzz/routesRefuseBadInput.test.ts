/**
 * Every call of the route tables (card API, content API) and of the sandbox, sent hostile input of each
 * kind a client can send: bodies that are not JSON or not an object, each field of the wrong type or
 * holding unstorable or hostile text and numbers, unknown keys, other media types, an oversized body,
 * duplicated and unknown query parameters, path parameters that climb or hold NUL, bad tokens of every
 * sort and bad Idempotency-Keys. Whatever comes in, each answer must be a 4xx or a success (never a 5xx
 * and never a hang), JSON with a numeric statusCode (a file call's 200 excepted), carry the security
 * headers of docs/security.md, echo no token sent, and a refusal (400, 404, 405, 413, 415) must leave
 * every table as it was: no money moved, nothing stored, no attempt counted. Fixed lists, so the same
 * run sends the same requests; what the OpenAPI document does not describe fails at close (answerAudit).
 */
import { getTableName, is, sql } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import type { LightMyRequestResponse } from 'fastify';
import { SignJWT } from 'jose';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type AnySchema, ValidationError } from 'yup';
import { allRoutes } from '../../../contract/routes.ts';
import { requestSchemas } from '../../../contract/schemas.ts';
import { fillPath, type Route } from '../../../contract/shared/route.ts';
import { issueCompanionToken } from '../../../server/companionTokens.ts';
import * as schema from '../../../server/db/schema/index.ts';
import { bearer, demoCardholder, demoCredentials, demoUser, signIn, startTestApp, type TestApp } from '../helpers.ts';

type Request = { method: string; url: string; headers?: Record<string, string | undefined>; payload?: string | Buffer };

let t: TestApp;
let webRoot: string;
const tokens: Record<Route['caller'], string | undefined> = { anonymous: undefined, accessToken: undefined, refreshToken: undefined, companionToken: undefined };
let expiredAccess: string;
let forgedAccess: string;
let cardId: string;

/** The tables a request could write: every one of the schema's. */
const tables = Object.values(schema)
  .filter((table) => is(table, PgTable))
  .map((table) => getTableName(table as PgTable));
/**
 * Rows written so far, by table: a trigger on every table adds one to its table's count for each row
 * inserted, updated or deleted (set up in beforeAll). Equal before and after a refusal when it wrote
 * nothing; stricter than comparing the rows, as a write of the same values counts too. Hashing every
 * row of every table after each request took about two thirds of this file's time.
 */
async function startCountingRowWrites(): Promise<void> {
  await t.db.execute(sql.raw('create table fuzz_row_writes (table_name text primary key, writes bigint not null default 0)'));
  await t.db.execute(sql.raw(`insert into fuzz_row_writes (table_name) values ${tables.map((table) => `('${table}')`).join(', ')}`));
  await t.db.execute(
    sql.raw(`create function fuzz_count_row_write() returns trigger language plpgsql as $$
      begin update fuzz_row_writes set writes = writes + 1 where table_name = TG_TABLE_NAME; return null; end $$`),
  );
  for (const table of tables) {
    await t.db.execute(sql.raw(`create trigger fuzz_count_row_write after insert or update or delete on ${table} for each row execute function fuzz_count_row_write()`));
  }
}
async function fingerprint(): Promise<Record<string, string>> {
  await t.app.afterAnswer.settled();
  const { rows } = (await t.db.execute(sql.raw('select table_name, writes::text from fuzz_row_writes'))) as unknown as { rows: { table_name: string; writes: string }[] };
  return Object.fromEntries(rows.map((row) => [row.table_name, row.writes]));
}
const changedTables = (before: Record<string, string>, after: Record<string, string>) => tables.filter((table) => before[table] !== after[table]);

beforeAll(async () => {
  // A built app of two files, so static answers are checked too.
  webRoot = mkdtempSync(path.join(tmpdir(), 'fuzz-web-root-'));
  writeFileSync(
    path.join(webRoot, 'index.html'),
    '<!doctype html><html lang="en"><head><title>Providers card</title><meta name="description" content="Providers prepaid debit account and card"></head><body><div aria-label="Loading"></div></body></html>',
  );
  mkdirSync(path.join(webRoot, 'assets'));
  writeFileSync(path.join(webRoot, 'assets', 'index-abc123.js'), 'console.log("app");');
  t = await startTestApp({ env: { SANDBOX: 'true' }, webRoot });
  await startCountingRowWrites();
  const session = await signIn(t.app);
  tokens.accessToken = session.access;
  tokens.refreshToken = session.refresh;
  tokens.companionToken = await issueCompanionToken({ uuid: demoCardholder.providersUuid, email: null }, t.config.companionTokenSecret);
  const short = await t.app.inject({ method: 'POST', url: '/sandbox/sessions', payload: { email: demoCardholder.email, accessTtlSeconds: 60 } });
  expiredAccess = short.json<{ access: string }>().access;
  await t.app.inject({ method: 'POST', url: '/sandbox/sessions/expire', payload: { access: expiredAccess } });
  // Signed as the server would, with a key it does not hold.
  forgedAccess = await new SignJWT({ fam: 'x' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject((await demoUser(t.db)).id)
    .setExpirationTime('10m')
    .sign(new TextEncoder().encode('not-the-servers-key-not-the-servers-key'));
  const { rows } = (await t.db.execute(sql`select c.id from cards c join accounts a on a.id = c.account_id join users u on u.id = a.user_id
    where lower(u.email) = lower(${demoCardholder.email}) order by c.created_at limit 1`)) as unknown as { rows: { id: string }[] };
  cardId = rows[0]!.id;
});
afterAll(async () => {
  await t?.close();
  rmSync(webRoot, { recursive: true, force: true });
});

// Inputs --------------------------------------------------------------------------------------------

const hostileStrings: [string, string][] = [
  ['empty', ''],
  ['NUL', 'a\u0000b'],
  ['a lone high surrogate', 'x\uD800'],
  ['a lone low surrogate', '\uDC00x'],
  ['an RTL override', '\u202Egnp.exe'],
  ['zero-width and BOM', '\u200B\uFEFF'],
  ['NaN as a string', 'NaN'],
  ['1e309 as a string', '1e309'],
  ['fullwidth digits', '１２３４'],
  ['markup', '<script>alert(1)</script>'],
  ['SQL', "' or 1=1 --"],
  ['a traversal', '../../etc/passwd'],
  ['a 5,000 character string', 'x'.repeat(5000)],
];
/** Raw JSON values, as text: numbers JSON.stringify cannot write (1e309, -0, 2^70) included. */
const wrongValues: [string, string][] = [
  ['a number', '2580'],
  ['fractional cents', '10.005'],
  ['-0', '-0'],
  ['1e309', '1e309'],
  ['a huge integer', '1180591620717411303424'],
  ['a negative huge integer', '-9223372036854775809'],
  ['an object', '{"$ne":""}'],
  ['an array', '["2580"]'],
  ['true', 'true'],
  ['null', 'null'],
  ...hostileStrings.map(([name, value]): [string, string] => [name, JSON.stringify(value)]),
];

/** A plausible value per field name, so one bad field is tried beside good-looking ones. */
function plausible(field: string, description: { type: string; oneOf?: unknown[]; fields?: Record<string, never> }): unknown {
  if (description.type === 'object') return Object.fromEntries(Object.entries(description.fields ?? {}).map(([key, inner]) => [key, plausible(key, inner)]));
  if (description.type === 'array') return [];
  const listed = description.oneOf?.find((value) => value !== null);
  if (listed !== undefined) return listed;
  const byName: Record<string, string> = {
    email: 'nobody@providers.test',
    phone: '5595550123',
    id: '',
    cardId: '',
    lastFourCard: '0000',
    expiry: '01/40',
    unlockCode: '9753',
    currentUnlockCode: '9753',
    code: '000000',
    ssn: '123-45-0000',
    password: 'not-the-password-1',
  };
  return byName[field] ?? 'x';
}

const describeBody = (schema: AnySchema | null) => schema?.describe() as { type: string; fields?: Record<string, never> } | undefined;

/** The call's bodies: each field in turn replaced by each wrong value, the others plausible (as JSON text). */
function bodiesOf(route: Route): [string, string][] {
  const description = describeBody(requestSchemas[route.name] ?? null);
  const base = (description ? plausible('', description) : {}) as Record<string, unknown>;
  for (const key of ['id', 'cardId']) if (key in base) base[key] = cardId;
  const withRaw = (key: string, raw: string) => {
    const marker = '"__raw__"';
    return JSON.stringify({ ...base, [key]: '__raw__' }).replace(marker, () => raw);
  };
  const fieldCases = Object.keys(base).flatMap((key) => wrongValues.map(([name, raw]): [string, string] => [`${key}: ${name}`, withRaw(key, raw)]));
  return [
    ['not JSON', '{"a":'],
    ['single quotes', "{'a':1}"],
    ['a trailing comma', '{"a":1,}'],
    ['a bare word', 'undefined'],
    ['a JSON array', '[]'],
    ['an array of the body', `[${JSON.stringify(base)}]`],
    ['a JSON string', '"x"'],
    ['a JSON number', '42'],
    ['1e309 alone', '1e309'],
    ['JSON null', 'null'],
    ['JSON true', 'true'],
    ['an empty object', '{}'],
    ['an unknown extra key', JSON.stringify({ ...base, isInternal: true })],
    ['__proto__', JSON.stringify({ ...base }).replace(/^\{/, '{"__proto__":{"isInternal":true},')],
    ['constructor.prototype', JSON.stringify({ ...base, constructor: { prototype: { isInternal: true } } })],
    ['keys named as Object.prototype\'s', JSON.stringify({ ...base, hasOwnProperty: 1, toString: 'x', valueOf: null })],
    ['a duplicate key', JSON.stringify(base).replace(/^\{/, '{"a":1,"a":2,')],
    ...fieldCases,
  ];
}

const contentTypes = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/jsonx',
  'application/vnd.api+json',
  'APPLICATION/JSON',
  'application/json; charset=utf-16',
  'application/json; charset=nonsense',
  ';;;',
];

/** Query strings for a GET call: each of its parameters duplicated, hostile or unknown. */
function queriesOf(route: Route): [string, string][] {
  const description = describeBody(requestSchemas[route.name] ?? null);
  const fields = Object.keys(description?.fields ?? {});
  const cursorOf = (text: string) => Buffer.from(text).toString('base64url');
  const nilUuid = '00000000-0000-0000-0000-000000000000';
  /** Values that keep a field's pattern but not its sense. */
  const alike: Record<string, string[]> = {
    cursor: [cursorOf(`99999999999999999.${nilUuid}`), cursorOf(`0.${nilUuid}`), cursorOf(`1.${nilUuid}.x`), cursorOf('-1.x'), 'A'.repeat(200)],
    limit: ['0', '26', '01', '+1', ' 1'],
    month: ['0000-01', '9999-12', '1969-12', '2026-13', '275760-09'],
    id: [nilUuid, nilUuid.toUpperCase(), 'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF'],
    cardId: [nilUuid, 'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF'],
    locale: ['EN', 'es-US', 'fr'],
  };
  const values = ['%00', '%ED%A0%80', '%', '%E2%80%AEx', 'NaN', '1e309', '-0', '..%2F..%2Fetc', 'x'.repeat(100_000)];
  return [
    ['an unknown parameter', 'zzz=1'],
    ...['__proto__', 'constructor', 'hasOwnProperty', 'toString'].map((name): [string, string] => [`a parameter named ${name}`, `${name}=1`]),
    ['an array parameter', 'a[]=1&a[]=2'],
    ['a nested parameter', 'a[b]=1'],
    ...fields.flatMap((field) => [
      [`${field} twice`, `${field}=a&${field}=b`] as [string, string],
      [`${field} empty`, `${field}=`] as [string, string],
      [`${field} without =`, field] as [string, string],
      [`${field}[]`, `${field}[]=x`] as [string, string],
      ...[...values, ...(alike[field] ?? []).map(encodeURIComponent)].map((value): [string, string] => [`${field}=${value.slice(0, 20)}`, `${field}=${value}`]),
    ]),
  ];
}

const pathValues = ['..', '..%2F..%2Fserver', '%2e%2e%2f%2e%2e%2f', '%00', 'a%00b', '%ED%A0%80', '%E2%80%AE', 'x'.repeat(200), '%20', '%25'];

// Checks --------------------------------------------------------------------------------------------

const isApi = (url: string) => /^\/(api|sandbox)(\/|$)/.test(url);

/** What is wrong with an answer, as readable lines (none when it is right). */
function problemsOf(request: Request, response: LightMyRequestResponse, options: { file?: boolean } = {}): string[] {
  const problems: string[] = [];
  const say = (what: string) => problems.push(`${request.method} ${request.url.slice(0, 120)}: ${what} (${response.statusCode} ${response.body.slice(0, 160)})`);
  if (response.statusCode >= 500) say('a 5xx');
  const noBody = response.statusCode === 204 || response.statusCode === 304 || request.method === 'HEAD';
  const fileAnswer = options.file && response.statusCode === 200;
  const callOrJson = /^\/(api|cms|sandbox)(\/|$)/.test(request.url) || String(response.headers['content-type'] ?? '').startsWith('application/json');
  if (!noBody && !fileAnswer && callOrJson) {
    let body: unknown;
    try {
      body = response.json();
    } catch {
      body = undefined;
    }
    if (typeof (body as { statusCode?: unknown } | undefined)?.statusCode !== 'number') say('no numeric statusCode');
  }
  const headers = response.headers;
  if (!/frame-ancestors /.test(String(headers['content-security-policy'] ?? ''))) say('no CSP with frame-ancestors');
  if (headers['x-content-type-options'] !== 'nosniff') say('no nosniff');
  if (headers['referrer-policy'] !== 'no-referrer') say('no Referrer-Policy');
  if (!headers['permissions-policy']) say('no Permissions-Policy');
  if (headers['cross-origin-resource-policy'] !== 'same-site') say('no Cross-Origin-Resource-Policy');
  if (isApi(request.url) && (headers['cache-control'] !== 'no-store' || headers.pragma !== 'no-cache')) say('an API answer a cache may keep');
  if (response.statusCode === 401 && !headers['www-authenticate']) say('a 401 without a challenge');
  if (String(headers['content-type'] ?? '').startsWith('text/html') && headers['cross-origin-opener-policy'] !== 'same-origin-allow-popups') say('an HTML page without COOP');
  if (headers['strict-transport-security']) say('HSTS over plain HTTP');
  if (/\n\s+at |"stack"|node_modules|\.ts:\d/.test(response.body)) say('a stack trace');
  const sentToken = /^bearer\s+(\S{20,})/i.exec(request.headers?.authorization ?? '')?.[1];
  if (sentToken && response.body.includes(sentToken)) say('the token sent, echoed');
  if (response.body.includes(demoCredentials.password)) say('the password, echoed');
  return problems;
}

const refusals = new Set([400, 404, 405, 413, 415]);

/** Sends each request; its problems, and a table changed by a refusal. */
async function sendAll(requests: Request[], options: { file?: boolean; tokenGood?: boolean } = {}): Promise<string[]> {
  const problems: string[] = [];
  let before = await fingerprint();
  for (const request of requests) {
    const response = await t.app.inject(request as never);
    problems.push(...problemsOf(request, response, options));
    if (options.tokenGood && tokenRefused(response)) problems.push(`${request.method} ${request.url}: the good token was refused, so the input was never read`);
    const after = await fingerprint();
    const changed = changedTables(before, after);
    if (refusals.has(response.statusCode) && changed.length > 0) {
      problems.push(`${request.method} ${request.url}: refused with ${response.statusCode} but changed ${changed.join(', ')} (${String(request.payload ?? '').slice(0, 120)})`);
    }
    before = after;
  }
  return problems;
}

/** A token of the call's kind from a session of its own (sign-out and unlock calls spend theirs). */
async function tokenOf(route: Route): Promise<string | undefined> {
  if (route.caller === 'anonymous' || route.caller === 'companionToken') return tokens[route.caller];
  const session = await signIn(t.app);
  return route.caller === 'accessToken' ? session.access : session.refresh;
}
/** An answer refusing the token itself: the request went no further, so its input was never read. */
const tokenRefused = (response: LightMyRequestResponse) => response.statusCode === 401 && /"statusCode":(100|103|104)[,}]/.test(response.body);
const urlOf = (route: Route, id = cardId) => `${route.base}${fillPath(route.path, { id, key: 'faq' })}`;
const idempotencyOf = (route: Route, key: string) => (route.idempotent ? { 'idempotency-key': key } : {});

// Tests ---------------------------------------------------------------------------------------------

const posts = allRoutes.filter((route) => route.method === 'POST');
const gets = allRoutes.filter((route) => route.method === 'GET');
// Before sign-out and the unlock calls spend the session the others use: those go last.
const spendsSession = new Set(['signOut', 'refreshTokens', 'resetUnlockCode', 'verifySsnWithRefreshToken']);
const ordered = <R extends Route>(routes: readonly R[]) => [...routes.filter((route) => !spendsSession.has(route.name)), ...routes.filter((route) => spendsSession.has(route.name))];

describe('every call of the route tables refuses bad input', () => {
  it('covers the route tables (control)', () => {
    expect(posts.length).toBeGreaterThanOrEqual(25);
    expect(gets.length).toBeGreaterThanOrEqual(10);
  });

  it.each(ordered(posts).map((route) => [`${route.base}${route.path}`, route] as const))('POST %s: bad bodies, media types, an oversized body', async (_url, route) => {
    const token = await tokenOf(route);
    const headers = { ...(token && bearer(token)), ...idempotencyOf(route, `fuzz-${route.name}`) };
    const requests: Request[] = [
      ...bodiesOf(route).map(([, payload]) => ({ method: 'POST', url: urlOf(route), headers: { ...headers, 'content-type': 'application/json' }, payload })),
      ...contentTypes.map((contentType) => ({ method: 'POST', url: urlOf(route), headers: { ...headers, 'content-type': contentType }, payload: '{}' })),
      { method: 'POST', url: urlOf(route), headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify({ a: 'x'.repeat(100 * 1024) }) },
      // Request bodies compressed (@fastify/compress inflates them): broken, a bomb past the limit, a coding it does not know.
      ...[
        ['gzip', 'not gzip'],
        ['br', 'not brotli'],
        ['gzip', gzipSync(`{"a":"${' '.repeat(1_000_000)}"}`)],
        ['zstd', '{}'],
      ].map(([coding, payload]) => ({ method: 'POST', url: urlOf(route), headers: { ...headers, 'content-type': 'application/json', 'content-encoding': coding as string }, payload: payload as string })),
    ];
    expect(await sendAll(requests, { tokenGood: route.caller !== 'anonymous' && !route.tokenOptional })).toEqual([]);
  }, 60_000);

  it.each(gets.map((route) => [`${route.base}${route.path}`, route] as const))('GET %s: bad queries and path parameters', async (_url, route) => {
    const token = await tokenOf(route);
    const headers = token ? bearer(token) : {};
    const requests: Request[] = queriesOf(route).map(([, query]) => ({ method: 'GET', url: `${urlOf(route)}?${query}`, headers }));
    if (route.path.includes('{')) {
      requests.push(...pathValues.map((value) => ({ method: 'GET', url: `${route.base}${route.path.replace(/\{\w+\}/, value)}`, headers })));
    }
    // A body on a GET, and HEAD.
    requests.push({ method: 'GET', url: urlOf(route), headers: { ...headers, 'content-type': 'text/plain' }, payload: 'x' });
    requests.push({ method: 'HEAD', url: urlOf(route), headers });
    expect(await sendAll(requests, { file: route.file !== undefined, tokenGood: route.caller !== 'anonymous' })).toEqual([]);
  }, 60_000);

  const badAuthorizations = (session: { access: string; refresh: string }): [string, string][] => [
    ['garbage', 'Bearer garbage'],
    ['the scheme alone', 'Bearer '],
    ['Basic', 'Basic Zm9vOmJhcg=='],
    ['an expired access token', `Bearer ${expiredAccess}`],
    ['a token signed with another key', `Bearer ${forgedAccess}`],
    ['an unsigned token', `Bearer ${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"sub":"x"}').toString('base64url')}.`],
    ['the access token as another kind', `Bearer ${session.access}`],
    ['the refresh token as another kind', `Bearer ${session.refresh}`],
    ['a 5,000 character token', `Bearer ${'a'.repeat(5000)}`],
    ['Latin-1 bytes', 'Bearer caf\u00e9'],
    ['two tokens', `Bearer ${session.access}, Bearer ${session.access}`],
  ];

  it.each(ordered(allRoutes.filter((route) => route.caller !== 'anonymous' && !route.tokenOptional)).map((route) => [`${route.method} ${route.base}${route.path}`, route] as const))(
    '%s: refuses bad tokens with 401 and a statusCode',
    async (_name, route) => {
      const requests: Request[] = badAuthorizations(await signIn(t.app))
        // The right kind of token is no bad token.
        .filter(([name]) => !(name === 'the access token as another kind' && route.caller === 'accessToken') && !(name === 'the refresh token as another kind' && route.caller === 'refreshToken'))
        .map(([, authorization]) => ({
          method: route.method,
          url: urlOf(route),
          headers: { authorization, ...idempotencyOf(route, 'fuzz-token'), ...(route.method === 'POST' && { 'content-type': 'application/json' }) },
          ...(route.method === 'POST' && { payload: '{}' }),
        }));
      const problems = await sendAll(requests);
      for (const request of requests) {
        const response = await t.app.inject(request as never);
        if (response.statusCode !== 401) problems.push(`${request.headers!.authorization!.slice(0, 40)}: ${response.statusCode}, not 401`);
      }
      expect(problems).toEqual([]);
    },
    60_000,
  );

  const badKeys: [string, string][] = [
    ['empty', ''],
    ['a space', ' '],
    ['256 characters', 'k'.repeat(256)],
    ['Latin-1 bytes', 'cl\u00e9'],
    ['a tab inside', 'a\tb'],
  ];

  it.each(posts.filter((route) => route.idempotent).map((route) => [`${route.base}${route.path}`, route] as const))('POST %s: refuses a bad Idempotency-Key, moving nothing', async (_url, route) => {
    const body = JSON.stringify(route.name === 'orderCard' ? {} : { id: cardId });
    const base = { ...bearer((await signIn(t.app)).access), 'content-type': 'application/json' };
    const requests: Request[] = [
      { method: 'POST', url: urlOf(route), headers: base, payload: body },
      ...badKeys.map(([, key]) => ({ method: 'POST', url: urlOf(route), headers: { ...base, 'idempotency-key': key }, payload: body })),
    ];
    const problems = await sendAll(requests, { tokenGood: true });
    for (const request of requests) {
      const response = await t.app.inject(request as never);
      if (response.statusCode !== 400 || response.json<{ statusCode: number }>().statusCode !== 2) problems.push(`key ${JSON.stringify(request.headers!['idempotency-key'])}: ${response.statusCode} ${response.body}`);
    }
    expect(problems).toEqual([]);
  });
  const hostileHeaders: [string, Record<string, string>][] = [
    ['Accept-Language of nonsense', { 'accept-language': ';;,,q=2,*;q=NaN,es;q=0.0001,' + 'x'.repeat(4000) }],
    ['Accept-Language refusing every language', { 'accept-language': 'en;q=0, es;q=0, *;q=0' }],
    ['a Device-UUID of 4,000 characters', { 'device-uuid': 'd'.repeat(4000) }],
    ['a Device-UUID of Latin-1 bytes', { 'device-uuid': 'caf\u00e9-caf\u00e9-caf\u00e9' }],
    ['an EBT-Account-ID of nonsense', { 'ebt-account-id': '../..\u00e9'.repeat(40) }],
    ['a Companion-Authorization of nonsense', { 'companion-authorization': 'Bearer x.y.z' }],
    ['X-Forwarded-For of nonsense', { 'x-forwarded-for': 'not-an-ip, ::ffff:999.1.1.1' }],
    ['If-None-Match and Range of nonsense', { 'if-none-match': '"x", W/', range: 'bytes=-' }],
    ['a Host naming a port out of range', { host: 'localhost:99999' }],
    ['a Host of nonsense', { host: '[::1' }],
  ];

  it.each(ordered(allRoutes).map((route) => [`${route.method} ${route.base}${route.path}`, route] as const))('%s: hostile headers', async (_name, route) => {
    const token = await tokenOf(route);
    const requests: Request[] = hostileHeaders.map(([, headers]) => ({
      method: route.method,
      url: urlOf(route),
      headers: { ...(token && bearer(token)), ...idempotencyOf(route, 'fuzz-headers'), ...(route.method === 'POST' && { 'content-type': 'application/json' }), ...headers },
      ...(route.method === 'POST' && { payload: '{"zzz":1}' }),
    }));
    expect(await sendAll(requests, { file: route.file !== undefined })).toEqual([]);
  }, 60_000);

  it('sees what a request stores (control of the table check)', async () => {
    const before = await fingerprint();
    const response = await t.app.inject({ method: 'POST', url: '/api/v1/analytics/events', payload: { events: [{ name: 'fuzz_control', at: new Date().toISOString(), sessionId: 's', properties: {} }] } });
    expect(response.statusCode).toBe(200);
    expect(changedTables(before, await fingerprint())).toContain('analytics_events');
  });
});

describe('the sandbox refuses bad input', () => {
  /**
   * The sandbox's calls as the server registered them (no route table lists them): the paths from the
   * router's tree, the methods each takes from its answer to OPTIONS (Allow).
   */
  async function sandboxCalls(): Promise<{ method: string; url: string }[]> {
    const parents: string[] = [];
    const paths: string[] = [];
    for (const line of t.app.printRoutes({ commonPrefix: false }).split('\n')) {
      const match = /^((?:│ {3}| {4})*)[├└]── (\S+)/.exec(line);
      if (!match) continue;
      const depth = match[1]!.length / 4;
      parents.length = depth;
      parents.push(match[2]!);
      const full = parents.join('');
      if (full.startsWith('/sandbox/')) paths.push(full);
    }
    const calls = [];
    for (const url of paths) {
      const allow = String((await t.app.inject({ method: 'OPTIONS', url })).headers.allow ?? '');
      calls.push(...allow.split(', ').filter((method) => !['HEAD', 'OPTIONS', ''].includes(method)).map((method) => ({ method, url })));
    }
    return calls;
  }

  it('finds its calls (control)', async () => {
    const calls = await sandboxCalls();
    expect(calls).toContainEqual({ method: 'POST', url: '/sandbox/events' });
    expect(calls.length).toBeGreaterThanOrEqual(10);
  });

  it('answers every sandbox call a 4xx or success with a statusCode, whatever it is sent', async () => {
    const problems: string[] = [];
    for (const { method, url } of await sandboxCalls()) {
      const requests: Request[] =
        method === 'GET' || method === 'DELETE'
          ? [
              { method, url: `${url}?zzz=1` },
              { method, url: `${url}?limit=1&limit=2` },
              { method, url: `${url}?limit=1e309` },
              { method, url: `${url}?email=a&email=b` },
              { method, url: `${url}?email=%00` },
              { method, url: `${url}?phone=${'1'.repeat(100_000)}` },
              { method, url: `${url}?name=%ED%A0%80` },
            ]
          : [
              ...['{"a":', '[]', '"x"', '42', 'null', '{}', JSON.stringify({ a: 'x'.repeat(100 * 1024) })].map((payload) => ({ method, url, headers: { 'content-type': 'application/json' }, payload })),
              ...[
                { type: 'deposit', email: demoCardholder.email, amountCents: 10.005, payer: 'Acme', payee: 'Maria Lopez' },
                { type: 'deposit', email: demoCardholder.email, amountCents: '100', payer: 'Acme', payee: 'Maria Lopez' },
                { type: 'deposit', email: demoCardholder.email, amountCents: 100, payer: 'Acme', payee: 'Maria Lopez', extra: 1 },
                { type: 'deposit', email: [demoCardholder.email], amountCents: 100, payer: 'Acme', payee: 'Maria Lopez' },
                { type: 'deposit', email: 'a\u0000b', amountCents: 100, payer: 'Acme', payee: 'Maria Lopez' },
                { type: 'card.authorization', email: demoCardholder.email, amountCents: 100, merchant: 'x'.repeat(81) },
                { type: 'card.settlement', transactionId: '../../x' },
                { type: 'card.shipped', cardId: '00000000-0000-0000-0000-000000000000' },
                { type: 'nope' },
                { email: demoCardholder.email, accessTtlSeconds: 3600.5 },
                { email: demoCardholder.email, accessTtlSeconds: -0 },
                { access: { $ne: '' } },
                { audience: 'everyone', flags: { virtualCards: 'yes' } },
              ].map((body) => ({ method, url, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) })),
              { method, url, headers: { 'content-type': 'application/json' }, payload: `{"type":"deposit","email":"${demoCardholder.email}","amountCents":1e309,"payer":"Acme","payee":"Maria Lopez"}` },
              { method, url, headers: { 'content-type': 'application/json' }, payload: `{"type":"deposit","email":"${demoCardholder.email}","amountCents":1180591620717411303424,"payer":"Acme","payee":"Maria Lopez"}` },
              { method, url, headers: { 'content-type': 'application/json' }, payload: `{"email":"${demoCardholder.email}","accessTtlSeconds":1e309}` },
              { method, url, headers: { 'content-type': 'text/plain' }, payload: 'x' },
            ];
      problems.push(...(await sendAll(requests)));
    }
    expect(problems).toEqual([]);
  }, 60_000);

  it.each([
    ['empty', ''],
    ['256 characters', 'k'.repeat(256)],
    ['Latin-1 bytes', 'cl\u00e9'],
  ])('refuses a deposit with an Idempotency-Key %s, moving nothing, as the card API does (an empty one was read as none: each retry a new deposit)', async (_name, key) => {
    const before = await fingerprint();
    const deposit = () =>
      t.app.inject({
        method: 'POST',
        url: '/sandbox/events',
        headers: { 'idempotency-key': key },
        payload: { type: 'deposit', email: demoCardholder.email, amountCents: 100, payer: 'Acme', payee: 'Maria Lopez' },
      });
    for (const response of [await deposit(), await deposit()]) {
      expect(problemsOf({ method: 'POST', url: '/sandbox/events' }, response)).toEqual([]);
      expect([response.statusCode, response.json()]).toEqual([400, { statusCode: 2 }]);
    }
    expect(await fingerprint()).toEqual(before);
  });
});

describe('answers outside the calls carry the security headers', () => {
  it.each([
    ['the app shell', { method: 'GET', url: '/' }],
    ['an app route', { method: 'GET', url: '/activity' }],
    ['a static file', { method: 'GET', url: '/assets/index-abc123.js' }],
    ['a missing static file', { method: 'GET', url: '/assets/missing.js' }],
    ['a traversal out of the web root', { method: 'GET', url: '/assets/..%2f..%2f..%2fetc%2fpasswd' }],
    ['a NUL in a file name', { method: 'GET', url: '/assets/index-abc123.js%00.png' }],
    ['a bad Range on a file', { method: 'GET', url: '/assets/index-abc123.js', headers: { range: 'bytes=999999-' } }],
    ['an unknown API path', { method: 'GET', url: '/api/v1/no-such-call' }],
    ['an unknown sandbox path', { method: 'GET', url: '/sandbox/no-such-call' }],
    ['an unknown API version', { method: 'GET', url: '/api/v2/home' }],
    ['a method a call does not take', { method: 'DELETE', url: '/api/v1/home' }],
    ['OPTIONS of a call', { method: 'OPTIONS', url: '/api/v1/sign-in' }],
    ['a URL that does not decode', { method: 'GET', url: '/api/v1/%E0%A4%A' }],
    ['Fastify\'s own JSON parser refusing', { method: 'POST', url: '/api/v1/sign-in', headers: { 'content-type': 'application/json' }, payload: '{"email":' }],
    ['an oversized body', { method: 'POST', url: '/api/v1/sign-in', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ a: 'x'.repeat(100 * 1024) }) }],
    ['another media type', { method: 'POST', url: '/api/v1/sign-in', headers: { 'content-type': 'text/plain' }, payload: 'x' }],
    ['a path parameter too long for the router', { method: 'GET', url: `/cms/config/${'x'.repeat(1000)}` }],
    ['a traversal in a path parameter', { method: 'GET', url: '/cms/config/..%2f..%2fpackage.json' }],
  ] as [string, Request][])('%s', async (_name, request) => {
    expect(await sendAll([request])).toEqual([]);
  });
});

describe('a bad body costs no more for being long', () => {
  // An anonymous 64 KB batch of 21,000 empty events (the limit is 50) made yup check every one of them and
  // build three errors each before answering 400: seconds of the one event loop, which every other
  // request waits on, and before the per-client limit counts anything. Counted in errors made, not timed.
  it.each([
    ['/api/v1/analytics/events', 'events'],
    ['/api/v1/error-reports', 'reports'],
  ])('refuses a %s batch far over its length without checking each item', async (url, key) => {
    const payload = `{"${key}":[${Array(21_000).fill('{}').join(',')}]}`;
    const errorsMade = vi.spyOn(ValidationError, 'formatError');
    try {
      const response = await t.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ statusCode: 2 });
      expect(errorsMade.mock.calls.length).toBeLessThan(100);
    } finally {
      errorsMade.mockRestore();
    }
  });
});
