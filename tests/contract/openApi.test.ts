/**
 * The OpenAPI 3.1 document made from the route tables: valid, served at GET /api/v1/openapi.json,
 * and the call list of docs/api.md is exactly what the tables say.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../contract/openapi.ts';
import { allRoutes, routeTables } from '../../contract/routes.ts';
import { requestSchemas } from '../../contract/schemas.ts';
import { apiDocPath, documentedCallList, renderCallList } from '../../scripts/apiDocs.ts';
import { transactionsPageLimit } from '../../contract/activity/limits.ts';
import { uuidPattern } from '../../contract/rules.ts';
import { bearer, signIn, startTestApp, type TestApp } from '../server/helpers.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('the OpenAPI document', () => {
  it('validates as OpenAPI 3.1', async () => {
    const document = openApiDocument();
    expect(document.openapi).toBe('3.1.0');
    // Named, not left to the default: linters (Redocly's no-empty-servers) ask for it.
    expect(document.servers).toEqual([{ url: '/', description: expect.any(String) }]);
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeTruthy();
  });

  it('is served at GET /api/v1/openapi.json', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
  });

  it('has one operation per route table entry, named as in its table', () => {
    const paths = openApiDocument().paths as Record<string, Record<string, { operationId: string }>>;
    const operationIds = Object.values(paths).flatMap((operations) => Object.values(operations).map((operation) => operation.operationId));
    const entries = Object.values(routeTables).flatMap((table) => Object.entries(table));
    for (const [key, route] of entries) expect(route.name).toBe(key);
    expect(operationIds.sort()).toEqual(entries.map(([key]) => key).sort());
    // Names are unique across features: the request schemas are found by name.
    expect(Object.keys(requestSchemas).sort()).toEqual(operationIds.sort());
  });

  it('describes a request body from its yup schema, rules and limits included', () => {
    const paths = openApiDocument().paths as Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Record<string, unknown> }> } }>>;
    const signIn = paths['/api/v1/sign-in']!.post!.requestBody!.content['application/json']!.schema;
    expect(signIn).toMatchObject({ type: 'object', additionalProperties: false });
    expect(signIn.properties).toMatchObject({ code: { type: 'string', pattern: '^[0-9]{6}$' } });
  });

  it('requires a body exactly where a field is required: the server reads no body as an empty one', async () => {
    type Operation = { requestBody?: { required: boolean } };
    const paths = openApiDocument().paths as Record<string, Record<string, Operation>>;
    const required = (address: string) => paths[address]!.post!.requestBody?.required;
    for (const address of ['/api/v1/sign-in', '/api/v1/refresh-tokens', '/api/v1/register', '/api/v1/card/freeze']) expect(required(address), address).toBe(true);
    for (const address of ['/api/v1/order-card', '/api/v1/sign-out']) expect(required(address), address).not.toBe(true);
    // What the document says of sign-in is what the server does: 400 {2} without its fields.
    for (const payload of [undefined, {}, { password: 'x' }]) {
      const response = await t.app.inject({ method: 'POST', url: '/api/v1/sign-in', ...(payload && { payload }) });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ statusCode: 2 });
    }
  });

  it("describes a required string as non-empty, as yup's required and the server take it", async () => {
    type Schema = { properties: Record<string, Schema>; items: Schema; minLength?: number };
    const paths = openApiDocument().paths as Record<string, Record<string, { requestBody: { content: Record<string, { schema: Schema }> } }>>;
    const event = paths['/api/v1/analytics/events']!.post!.requestBody.content['application/json']!.schema.properties.events!.items;
    expect(event.properties.name!.minLength).toBe(1);
    const valid = { name: 'home_viewed', at: new Date().toISOString(), sessionId: randomUUID() };
    const send = (name: string) => t.app.inject({ method: 'POST', url: '/api/v1/analytics/events', payload: { events: [{ ...valid, name }] } });
    expect((await send('home_viewed')).statusCode).toBe(200);
    expect((await send('')).statusCode).toBe(400);
  });

  it('describes the page limit of GET /transactions exactly as the server takes it: 1 to a page', async () => {
    const paths = openApiDocument().paths as Record<string, Record<string, { parameters: { name: string; schema: { pattern: string } }[] }>>;
    const limit = new RegExp(paths['/api/v1/transactions']!.get!.parameters.find((parameter) => parameter.name === 'limit')!.schema.pattern);
    const { access } = await signIn(t.app);
    for (const value of ['0', '1', '9', '10', '19', String(transactionsPageLimit), String(transactionsPageLimit + 1), '99', '01', '100']) {
      const taken = Number(value) >= 1 && Number(value) <= transactionsPageLimit && !value.startsWith('0');
      expect(limit.test(value), value).toBe(taken);
      const response = await t.app.inject({ method: 'GET', url: `/api/v1/transactions?limit=${value}`, headers: bearer(access) });
      expect(response.statusCode, value).toBe(taken ? 200 : 400);
    }
  });

  // Python's regular expressions (Schemathesis and others) read \d as any Unicode digit; JSON Schema's as 0-9.
  it('writes no pattern with \\d, which tools read differently, and every {id} with the pattern the server checks', () => {
    const document = JSON.stringify(openApiDocument());
    expect(document).not.toContain('\\\\d');
    const paths = openApiDocument().paths as Record<string, Record<string, { parameters: { name: string; in: string; schema: { pattern?: string } }[] }>>;
    const ids = Object.entries(paths).flatMap(([address, byMethod]) =>
      Object.values(byMethod).flatMap((operation) => operation.parameters.filter((parameter) => parameter.in === 'path' && parameter.name === 'id').map((parameter) => [address, parameter.schema] as const)),
    );
    expect(ids.length).toBeGreaterThan(1);
    for (const [address, schema] of ids) expect(schema.pattern, address).toBe(uuidPattern.source);
  });

  it('says how a broken rule is answered: a field error, 400 {2} where the call shows none (sign-in), or the call\'s result (a phone)', () => {
    type Body = { requestBody: { content: Record<string, { schema: { properties: Record<string, { description?: string }> } }> } };
    const paths = openApiDocument().paths as Record<string, Record<string, Body>>;
    const field = (address: string, name: string) => paths[address]!.post!.requestBody.content['application/json']!.schema.properties[name]!.description;
    expect(field('/api/v1/sign-in', 'email')).toContain('400 {2}');
    expect(field('/api/v1/verify/email', 'email')).toContain('field error');
    expect(field('/api/v1/verify-phone', 'phone')).toContain('200 {202}');
  });

  it('describes user properties as the flat map of scalars the server takes', async () => {
    type Body = { requestBody: { content: Record<string, { schema: { properties: Record<string, object> } }> } };
    const paths = openApiDocument().paths as Record<string, Record<string, Body>>;
    const schema = paths['/api/v1/analytics/events']!.post!.requestBody.content['application/json']!.schema.properties.userProperties;
    expect(schema).toMatchObject({ type: 'object', maxProperties: 30, additionalProperties: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] } });
    const sent = async (userProperties: unknown) => (await t.app.inject({ method: 'POST', url: '/api/v1/analytics/events', payload: { events: [], userProperties } })).statusCode;
    expect(await sent({ wave: 'snapback_test', count: 2, on: true })).toBe(200);
    expect(await sent({ nested: { no: 1 } })).toBe(400);
    expect(await sent(null)).toBe(400);
    // Lengths in code points, as JSON Schema counts them: 500 emoji are 500 characters.
    expect(await sent({ note: '😀'.repeat(500), ['😀'.repeat(64)]: true })).toBe(200);
    expect(await sent({ note: '😀'.repeat(501) })).toBe(400);
  });

  it('gives every 401 its WWW-Authenticate header (RFC 9110 §11.6.1)', () => {
    type Operation = { responses: Record<string, { headers?: Record<string, unknown> }> };
    const operations = Object.values(openApiDocument().paths as Record<string, Record<string, Operation>>).flatMap((byMethod) => Object.values(byMethod));
    const unauthorized = operations.filter((operation) => operation.responses['401']);
    expect(unauthorized.length).toBeGreaterThan(20);
    for (const operation of unauthorized) expect(operation.responses['401']!.headers).toMatchObject({ 'WWW-Authenticate': { schema: { type: 'string' } } });
  });

  it('gives every 429 its Retry-After header, and /register its Companion-Authorization', () => {
    type Operation = { parameters?: { $ref?: string }[]; responses: Record<string, { headers?: Record<string, unknown> }> };
    const document = openApiDocument() as { paths: Record<string, Record<string, Operation>>; components: { parameters: Record<string, { name: string }> } };
    const operations = Object.values(document.paths).flatMap((operations) => Object.values(operations));
    const tooMany = operations.filter((operation) => operation.responses['429']);
    expect(tooMany.length).toBeGreaterThan(5);
    for (const operation of tooMany) expect(operation.responses['429']!.headers).toMatchObject({ 'Retry-After': { schema: { type: 'integer' } } });
    expect(document.components.parameters.CompanionAuthorization).toMatchObject({ name: 'Companion-Authorization' });
    const reading = Object.entries(document.paths).filter(([, byMethod]) =>
      Object.values(byMethod).some((operation) => operation.parameters?.some((parameter) => parameter.$ref === '#/components/parameters/CompanionAuthorization')),
    );
    expect(reading.map(([address]) => address)).toEqual(['/api/v1/register']);
  });

  it("describes each answer's fields from its answer type, each HTTP status with its own shape", () => {
    type Responses = Record<string, { content: Record<string, { schema: Record<string, unknown> }> }>;
    const paths = openApiDocument().paths as Record<string, Record<string, { responses: Responses }>>;
    const answer = (address: string, method: string, status: string) => paths[address]![method]!.responses[status]!.content['application/json']!.schema;
    const home = answer('/api/v1/home', 'get', '200');
    expect(home.required).toEqual(expect.arrayContaining(['statusCode', 'accountOverview', 'pendingCard']));
    expect(home.properties).toMatchObject({ statusCode: { enum: [0] }, accountOverview: { type: 'object', properties: { balance: { type: 'number' } } } });
    // 401 {103, 104}: the answer type's success fields are not required there.
    expect(answer('/api/v1/home', 'get', '401')).toMatchObject({ required: ['statusCode'], properties: { statusCode: { enum: [103, 104] } } });
    // A union answer type split by statusCode: the refusal's reason at 403, the wait at 429.
    expect(answer('/api/v1/activate-card', 'post', '403')).toMatchObject({ required: ['statusCode', 'reason'], properties: { reason: { enum: expect.arrayContaining(['lastFourMismatch']) } } });
    expect(answer('/api/v1/activate-card', 'post', '429')).toMatchObject({ required: ['statusCode', 'retryAfterSeconds'], properties: { statusCode: { enum: [201] } } });
    // 404 {3}, no such card of the caller's: the same statusCode as a refusal, without its reason.
    expect(answer('/api/v1/card/freeze', 'post', '404').anyOf).toContainEqual({ type: 'object', required: ['statusCode'], properties: { statusCode: { type: 'integer', enum: [3] } } });
  });
});

describe('the Idempotency-Key', () => {
  it('is a required header of exactly the money-moving calls, with the pattern the server checks', () => {
    type Operation = { parameters?: { name: string; in: string; required: boolean; schema: { pattern: string } }[] };
    const paths = openApiDocument().paths as Record<string, Record<string, Operation>>;
    const needing = Object.entries(paths).flatMap(([address, operations]) =>
      Object.entries(operations)
        .filter(([, operation]) => operation.parameters?.some((parameter) => parameter.in === 'header' && parameter.name === 'Idempotency-Key' && parameter.required))
        .map(([method]) => `${method.toUpperCase()} ${address}`),
    );
    expect(needing.sort()).toEqual(['POST /api/v1/card/replace', 'POST /api/v1/order-card']);
    const pattern = new RegExp(paths['/api/v1/order-card']!.post!.parameters!.find((parameter) => parameter.name === 'Idempotency-Key')!.schema.pattern);
    expect(['k', randomUUID(), '~'.repeat(255)].every((key) => pattern.test(key))).toBe(true);
    expect(['', 'a key', 'k'.repeat(256), 'clé'].some((key) => pattern.test(key))).toBe(false);
  });
});

describe('who may call', () => {
  it('says sign-out takes a refresh token or an access token, or none (it answers 200 either way)', () => {
    const paths = openApiDocument().paths as Record<string, Record<string, { security: Record<string, string[]>[] }>>;
    expect(paths['/api/v1/sign-out']!.post!.security).toEqual([{}, { refreshToken: [] }, { accessToken: [] }]);
    expect(paths['/api/v1/home']!.get!.security).toEqual([{ accessToken: [] }]);
  });
});

describe('a file call', () => {
  it("documents its 200's Content-Disposition (RFC 6266), as GET /statement sends it", () => {
    type Answer = { headers?: Record<string, unknown>; content: Record<string, unknown> };
    const answers = (openApiDocument().paths as Record<string, Record<string, { responses: Record<string, Answer> }>>)['/api/v1/statement']!.get!.responses;
    expect(Object.keys(answers['200']!.content)).toEqual(['application/pdf']);
    expect(answers['200']!.headers).toHaveProperty('Content-Disposition');
  });
});

describe("the app's headers (spec §7: Fingerprint, Device-UUID, EBT-Account-ID)", () => {
  type Parameter = { name: string; in: string; required: boolean; schema: { pattern?: string } };
  const document = openApiDocument() as { paths: Record<string, Record<string, { parameters: { $ref?: string }[] }>>; components: { parameters: Record<string, Parameter> } };

  it('are optional parameters of every operation, each described once (EBT-Account-ID by /register itself)', () => {
    const headers = { DeviceUuid: 'Device-UUID', EbtAccountId: 'EBT-Account-ID', Fingerprint: 'Fingerprint' };
    const operations = Object.entries(document.paths).flatMap(([address, operations]) => Object.values(operations).map((operation) => [address, operation] as const));
    expect(operations).toHaveLength(allRoutes.length);
    for (const [component, name] of Object.entries(headers)) {
      expect(document.components.parameters[component]).toMatchObject({ name, in: 'header', required: false });
      for (const [address, operation] of operations) {
        if (address === '/api/v1/register' && component === 'EbtAccountId') continue;
        expect(operation.parameters).toContainEqual({ $ref: `#/components/parameters/${component}` });
      }
    }
  });

  it('gives EBT-Account-ID the pattern /register checks, on /register only: no other call refuses any value', async () => {
    const register = document.paths['/api/v1/register']!.post!.parameters as unknown as Parameter[];
    const own = register.filter((parameter) => parameter.name === 'EBT-Account-ID');
    expect(own).toHaveLength(1);
    const pattern = new RegExp(own[0]!.schema.pattern!);
    expect(['EBT-4417-2209', 'ebt_1', 'A'.repeat(64)].every((id) => pattern.test(id))).toBe(true);
    expect(['', 'EBT 4417', 'EBT-4417;x', 'A'.repeat(65), 'ÉBT-1'].some((id) => pattern.test(id))).toBe(false);
    expect(document.components.parameters.EbtAccountId!.schema.pattern).toBeUndefined();
    const { access } = await signIn(t.app);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/home', headers: { ...bearer(access), 'ebt-account-id': '!!!' } })).statusCode).toBe(200);
  });
});

describe('docs/api.md', () => {
  it('lists the calls exactly as the route tables do (npm run docs:api rewrites the list)', () => {
    expect(documentedCallList(readFileSync(apiDocPath, 'utf8'))).toBe(renderCallList());
  });
});
