/**
 * The OpenAPI 3.1 document of every route table (contract/routes.ts), made by hand from each request
 * schema's yup `describe()`: served at GET /api/v1/openapi.json, and the source of docs/api.md's
 * generated call list.
 */
import type { AnySchema, SchemaDescription, SchemaFieldDescription, SchemaInnerTypeDescription, SchemaObjectDescription } from 'yup';
import { allRoutes } from './routes.ts';
import { requestSchemas, routeSummaries } from './schemas.ts';
import { uuidPattern } from './rules.ts';
import { type Caller, cardApiBase, ebtAccountIdPattern, type HttpStatus, idempotencyKeyPattern, type Route } from './shared/route.ts';
import { StatusCode } from './shared/statusCodes.ts';
import answerSchemas from './answerSchemas.json' with { type: 'json' };

type JsonSchema = Record<string, unknown>;

/** One part of a call's answer type: the statusCodes its `statusCode` allows (null: any), and its schema. */
export type AnswerMember = { statusCodes: number[] | null; schema: JsonSchema | boolean };
/** contract/answerSchemas.json, made from the answer types by scripts/answerSchemas.ts. */
export type AnswerSchemas = Record<string, AnswerMember[]>;

/**
 * Spec §5 field rules run as custom yup tests named `rule` (contract/validation.ts); the schema names
 * them, and how the call answers a broken one: a field error (400 {4}), or, where the call lists no
 * field errors (sign-in, unlock, card activation: nothing to show per field), a bad request (400 {2}).
 */
const ruleNotes = {
  fieldError: 'A spec §5 rule (contract/rules.ts) applies: a broken rule is a field error (400 {4, fieldErrors}).',
  badRequest: 'A spec §5 rule (contract/rules.ts) applies: a broken rule is answered 400 {2}, as this call shows no field errors.',
  phoneResult: 'A spec §5 rule (contract/rules.ts) applies: a phone that breaks it is this call\'s result, 200 {202} (INVALID_PHONE_NUMBER).',
};

/** How a call answers a broken rule, from the answers its table lists. */
function ruleNoteOf(route: Route): string {
  // A call with INVALID_PHONE_NUMBER among its results answers a broken phone that way (serveChecked).
  if (route.answers[200]?.includes(StatusCode.INVALID_PHONE_NUMBER)) return ruleNotes.phoneResult;
  return route.answers[400]?.includes(StatusCode.FAILED_VALIDATION) ? ruleNotes.fieldError : ruleNotes.badRequest;
}

/** A flat object of scalars (contract/validation.ts flatScalars), as JSON Schema. */
function flatScalarsSchema({ maxKeys, allowNull }: { maxKeys: number; allowNull: boolean }): JsonSchema {
  const scalars: JsonSchema[] = [{ type: 'string', maxLength: 500 }, { type: 'number' }, { type: 'boolean' }];
  return {
    type: 'object',
    maxProperties: maxKeys,
    propertyNames: { maxLength: 64 },
    additionalProperties: { anyOf: allowNull ? [...scalars, { type: 'null' }] : scalars },
  };
}

function jsonSchemaOf(field: SchemaFieldDescription, ruleNote = ruleNotes.fieldError): JsonSchema {
  const description = field as SchemaDescription;
  const tests = description.tests ?? [];
  const param = (name: string, key: string) => tests.find((test) => test.name === name)?.params?.[key];
  const schema: JsonSchema = {};
  const kind = description.type;
  if (kind === 'object') {
    const object = description as SchemaObjectDescription;
    const fields = Object.entries(object.fields);
    schema.type = 'object';
    schema.properties = Object.fromEntries(fields.map(([name, inner]) => [name, jsonSchemaOf(inner, ruleNote)]));
    const required = fields.filter(([, inner]) => (inner as SchemaDescription).optional === false).map(([name]) => name);
    if (required.length > 0) schema.required = required;
    if (tests.some((test) => test.name === 'noUnknown')) schema.additionalProperties = false;
  } else if (kind === 'array') {
    schema.type = 'array';
    const inner = (description as SchemaInnerTypeDescription).innerType;
    if (inner && !Array.isArray(inner)) schema.items = jsonSchemaOf(inner, ruleNote);
    const max = param('max', 'max');
    if (typeof max === 'number') schema.maxItems = max;
  } else if (kind === 'string' || kind === 'boolean' || kind === 'number') {
    schema.type = kind;
    const max = param('max', 'max');
    if (kind === 'string' && typeof max === 'number') schema.maxLength = max;
    // yup's required refuses an empty string as well as a missing one.
    const min = Math.max(Number(param('min', 'min') ?? 0), tests.some((test) => test.name === 'required') ? 1 : 0);
    if (kind === 'string' && min > 0) schema.minLength = min;
    const regex = param('matches', 'regex');
    if (regex instanceof RegExp) schema.pattern = regex.source;
  }
  const flat = tests.find((test) => test.name === 'flat-scalars')?.params;
  if (flat) Object.assign(schema, flatScalarsSchema(flat as { maxKeys: number; allowNull: boolean }));
  if (description.nullable && typeof schema.type === 'string') schema.type = [schema.type, 'null'];
  const values = description.oneOf.filter((value) => value !== undefined);
  if (values.length > 0) schema.enum = values;
  if (tests.some((test) => test.name === 'rule')) schema.description = ruleNote;
  return schema;
}

/**
 * Every answer a call can get: its own, and those any call can get from the server around it: 400
 * `{2}` for a request it cannot read (malformed or unsafe JSON, a body where none is taken, an
 * unreadable query, an HTTP/1.1 request without Host), 413 `{2}` for a body over the limit and 415
 * `{2}` for a body that is not JSON (POST; RFC 9110 §15.5.14, §15.5.16), 417 and 421 `{2}` for an
 * unmet Expect and a host the server does not serve, 500 `{5}` for the server's own failure and 503 `{5}`
 * for a request that arrives while it closes (server/shared/closing.ts). The document lists
 * these (kept out of the route tables, which the app ships); the server's tests check every answer
 * against them (tests/support/answerAudit.ts).
 */
export function documentedAnswers(route: Route): Partial<Record<HttpStatus, readonly number[]>> {
  const answers: Partial<Record<HttpStatus, readonly number[]>> = { ...route.answers };
  const add = (status: HttpStatus, statusCode: number) => {
    const codes = answers[status] ?? [];
    if (!codes.includes(statusCode)) answers[status] = [...codes, statusCode];
  };
  add(400, StatusCode.INVALID_PARAMETERS);
  // server/shared/requestHost.ts: 421 only from the sandbox on loopback.
  add(417, StatusCode.INVALID_PARAMETERS);
  add(421, StatusCode.INVALID_PARAMETERS);
  if (route.method === 'POST') {
    add(413, StatusCode.INVALID_PARAMETERS);
    add(415, StatusCode.INVALID_PARAMETERS);
  }
  add(500, StatusCode.UNEXPECTED_ERROR);
  add(503, StatusCode.UNEXPECTED_ERROR);
  return answers;
}

const securityOf: Record<Caller, { [scheme: string]: [] }[]> = {
  anonymous: [],
  accessToken: [{ accessToken: [] }],
  refreshToken: [{ refreshToken: [] }],
  companionToken: [{ companionToken: [] }],
};

/** `{statusCode}` and nothing said of other fields: what any call can get (documentedAnswers). */
const statusAnswer = (codes: readonly number[]): JsonSchema => ({
  type: 'object',
  required: ['statusCode'],
  properties: { statusCode: { type: 'integer', enum: codes } },
});

/** A member's schema with its statusCode narrowed to `codes`. */
function answeringWith(schema: JsonSchema, codes: readonly number[]): JsonSchema {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  return { ...schema, properties: { ...properties, statusCode: { type: 'integer', enum: codes } } };
}

/**
 * The JSON answer of a call at one HTTP status, from its answer type (contract/answerSchemas.json): the
 * parts of the type whose statusCode is one of this status's; a part that allows any statusCode
 * (`StatusAnswer & {…}`) describes the 200 as it is, and another status only when no part is its
 * own, then with nothing but statusCode required (its other fields are the success's).
 */
function answerSchemaOf(route: Route, status: number, codes: readonly number[]): JsonSchema {
  if (!route.answers[status as HttpStatus]) return statusAnswer(codes);
  const members = (answerSchemas as AnswerSchemas)[route.name] ?? [];
  const own = members.flatMap(({ statusCodes, schema }) => {
    const shared = statusCodes?.filter((code) => codes.includes(code)) ?? [];
    return shared.length > 0 ? [answeringWith(schema as JsonSchema, shared)] : [];
  });
  const wide = members
    .filter(({ statusCodes }) => statusCodes === null)
    .map(({ schema }) => answeringWith(status === 200 ? (schema as JsonSchema) : { ...(schema as JsonSchema), required: ['statusCode'] }, codes));
  const fitting = status === 200 || own.length === 0 ? [...own, ...wide] : own;
  if (fitting.length === 0) return statusAnswer(codes);
  return fitting.length === 1 ? fitting[0]! : { anyOf: fitting };
}

/** The headers the app sends on every call (spec §7), described once in components. */
const appHeaders = { 'Device-UUID': 'DeviceUuid', 'EBT-Account-ID': 'EbtAccountId', Fingerprint: 'Fingerprint' };

/** Tokens a call also takes besides its table's caller: sign-out ends the session of an access token too (server/features/session). */
const otherCallers: Partial<Record<string, Caller[]>> = { signOut: ['accessToken'] };

/** Headers only some calls read, by operation. */
const callHeaders: Partial<Record<string, JsonSchema[]>> = {
  register: [
    { $ref: '#/components/parameters/CompanionAuthorization' },
    // The one call that reads it, and refuses one that is not an id (400 {2}).
    {
      name: 'EBT-Account-ID',
      in: 'header',
      required: false,
      description: 'Read here only: links the new account to this EBT account (upper case) when the Companion-Authorization token names it; 400 {2} when it is not an id.',
      schema: { type: 'string', pattern: ebtAccountIdPattern.source },
    },
  ],
};

/** RFC 9110 §10.2.3, on every 429: the same wait as the answer's retryAfterSeconds. */
const retryAfter = {
  description: 'Seconds to wait before trying again (the answer\'s retryAfterSeconds, when it has one).',
  schema: { type: 'integer', minimum: 1 },
};

/** RFC 9110 §11.6.1, on every 401 (server/shared/http.ts, registerAuthChallenges). */
const wwwAuthenticate = {
  description: 'The bearer challenge (RFC 6750 §3): `Bearer`, or `Bearer error="invalid_token"` when the token sent was refused (statusCode 103, 104; 100 on the companion sign-in).',
  schema: { type: 'string', pattern: '^Bearer' },
};

/** The headers an answer at this status carries. */
const answerHeaders: Partial<Record<string, JsonSchema>> = {
  '401': { 'WWW-Authenticate': wwwAuthenticate },
  '429': { 'Retry-After': retryAfter },
};

/** Path parameters by name: every `{id}` of the tables is an RFC 9562 id (a card's), checked as such. */
const pathParameterSchemas: Partial<Record<string, JsonSchema>> = { id: { type: 'string', pattern: uuidPattern.source } };

function operationOf(route: Route, schema: AnySchema | null): JsonSchema {
  const pathParameters = [...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: pathParameterSchemas[name!] ?? { type: 'string' },
  }));
  const request = schema ? jsonSchemaOf(schema.describe(), ruleNoteOf(route)) : undefined;
  const queryParameters =
    route.method === 'GET' && request
      ? Object.entries((request.properties as Record<string, JsonSchema>) ?? {}).map(([name, schema]) => ({
          name,
          in: 'query',
          required: ((request.required as string[] | undefined) ?? []).includes(name),
          schema,
        }))
      : [];
  const headerParameters = route.idempotent
    ? [
        {
          name: 'Idempotency-Key',
          in: 'header',
          required: true,
          description: 'Chosen by the client once per attempt: a retry with the same key has one effect and answers the first result; the same key with another request is refused (422 {3, reason: idempotencyKeyReused}); one sent while the first is still being answered waits for it and answers its result.',
          schema: { type: 'string', pattern: idempotencyKeyPattern.source },
        },
      ]
    : [];
  const ownHeaders = callHeaders[route.name] ?? [];
  // An app header the call describes itself (/register's EBT-Account-ID) is not listed twice.
  const sharedHeaders = Object.entries(appHeaders)
    .filter(([header]) => !ownHeaders.some((parameter) => parameter.name === header))
    .map(([, component]) => ({ $ref: `#/components/parameters/${component}` }));
  const parameters = [...pathParameters, ...queryParameters, ...headerParameters, ...ownHeaders, ...sharedHeaders];
  const responses = Object.fromEntries(
    Object.entries(documentedAnswers(route)).map(([status, codes]) => [
      status,
      route.file && status === '200'
        ? // A file entry's 200 is the file's bytes (GET /statement's PDF), not JSON.
          {
            description: route.file,
            headers: {
              // RFC 6266: a download, named for its month and language (contract/statements/types.ts statementFileName).
              'Content-Disposition': { description: 'attachment; filename="providers-statement-2026-11.pdf" (Spanish: providers-estado-de-cuenta-2026-11.pdf)', schema: { type: 'string' } },
            },
            content: { [route.file]: { schema: { type: 'string', contentMediaType: route.file } } },
          }
        : {
            description: `statusCode ${codes.join(', ')}`,
            ...(answerHeaders[status] ? { headers: answerHeaders[status] } : {}),
            // An answer only the server around the call gives (docs/api.md says these once, not per call).
            ...(route.answers[Number(status) as HttpStatus] ? {} : { 'x-any-call': true }),
            content: { 'application/json': { schema: answerSchemaOf(route, Number(status), codes) } },
          },
    ]),
  );
  return {
    operationId: route.name,
    summary: routeSummaries[route.name],
    ...(route.tokenOptional ? { 'x-token-optional': true } : {}),
    security: [...(route.tokenOptional ? [{}] : []), ...[route.caller, ...(otherCallers[route.name] ?? [])].flatMap((caller) => securityOf[caller])],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(route.method === 'POST' && request
      ? // The server reads no body as an empty one, so a body is required exactly when a field is.
        { requestBody: { required: ((request.required as string[] | undefined) ?? []).length > 0, content: { 'application/json': { schema: request } } } }
      : {}),
    responses,
  };
}

export function openApiDocument(routes: readonly Route[] = allRoutes, schemas = requestSchemas): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    const path = `${route.base}${route.path}`;
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operationOf(route, schemas[route.name] ?? null) };
  }
  const bearer = (description: string) => ({ type: 'http', scheme: 'bearer', description });
  return {
    openapi: '3.1.0',
    info: {
      title: 'Providers card API',
      version: cardApiBase.replace('/api/', ''),
      description:
        'Every answer is JSON with a numeric statusCode (spec §8), except a file call\'s 200 (GET /statement: application/pdf); docs/api.md tells what each one means.',
    },
    // The paths are absolute (/api/v1/…, /cms/…): the server is the origin this document comes from.
    servers: [{ url: '/', description: 'The origin that serves this document' }],
    paths,
    components: {
      parameters: {
        // server/shared/http.ts deviceUuidOf: what is past 64 characters is not read.
        DeviceUuid: {
          name: 'Device-UUID',
          in: 'header',
          required: false,
          description:
            "The app's id for this device, the same on every call: a refresh token is bound to it, and sign-in limits count per device. Without it, a call is answered as from an unknown device.",
          schema: { type: 'string' },
        },
        EbtAccountId: {
          name: 'EBT-Account-ID',
          in: 'header',
          required: false,
          description:
            "The companion app's EBT account id, sent on every call once known. No call but /register reads it (its own parameter there).",
          schema: { type: 'string' },
        },
        CompanionAuthorization: {
          name: 'Companion-Authorization',
          in: 'header',
          required: false,
          description:
            "`Bearer <token>`: the companion app's token for its user. With it, /register links the new account to that user (providersUuid) and to the EBT account its `ebt` claim names; without a valid one the account opens unlinked.",
          schema: { type: 'string' },
        },
        Fingerprint: {
          name: 'Fingerprint',
          in: 'header',
          required: false,
          description: "The app's random id for this install, sent on every call. No call reads it.",
          schema: { type: 'string' },
        },
      },
      securitySchemes: {
        accessToken: bearer('The access token of a signed-in cardholder.'),
        refreshToken: bearer('The refresh token of a session (unlock, unlock-code reset, sign-out).'),
        companionToken: bearer("The companion app's token for its user."),
      },
    },
  };
}
