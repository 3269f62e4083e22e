/**
 * Checks every answer a test app gives to a route table call against the OpenAPI document
 * (contract/openapi.ts): its HTTP status must be one the call lists (`documentedAnswers`), and its
 * JSON body must match that status's schema, statusCode and every described field (JSON Schema
 * 2020-12, as OpenAPI 3.1 uses, checked with Ajv); a file call's 200 must be its file. What a client
 * built from the document would meet, over every request of the server's tests: TestApp.close()
 * fails on any answer the document does not describe. Here every object is also closed, so a field
 * the answer types do not declare fails too: nothing leaves the server that the contract does not name
 * (the document itself leaves them open, so a field added later breaks no client).
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import type { FastifyInstance } from 'fastify';
import { openApiDocument } from '../../contract/openapi.ts';
import { allRoutes } from '../../contract/routes.ts';
import { fastifyPath } from '../../server/shared/routeServer.ts';

type Response = { content?: Record<string, { schema: object }> };
type Operations = Record<string, Record<string, { responses: Record<string, Response> }>>;

/** Each call by Fastify's method and route URL (`GET /cms/config/:key`), with the document's responses for it. */
const paths = openApiDocument().paths as Operations;
const responsesByRoute = new Map(
  allRoutes.map((route) => [
    `${route.method} ${fastifyPath(route)}`,
    { name: route.name, responses: paths[`${route.base}${route.path}`]![route.method.toLowerCase()]!.responses },
  ]),
);

const ajv = new Ajv2020({ allErrors: true, strict: false });
const validators = new Map<object, ValidateFunction>();
/** The schema with every object closed: a field the answer type does not declare is an error here. */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (typeof schema !== 'object' || schema === null) return schema;
  const copy = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, closed(value)]));
  return copy.type === 'object' && !('additionalProperties' in copy) ? { ...copy, additionalProperties: false } : copy;
}
const validatorOf = (schema: object) => validators.get(schema) ?? validators.set(schema, ajv.compile(closed(schema) as object)).get(schema)!;

function undocumented(responses: Record<string, Response>, status: number, type: string, payload: unknown): string | null {
  const response = responses[String(status)];
  if (!response) return `${status}, a status it does not list`;
  const mediaType = type.split(';')[0]!.trim();
  const content = response.content?.[mediaType];
  if (!content) return `${status} as ${mediaType || 'no content type'}, not ${Object.keys(response.content ?? {}).join(' or ')}`;
  if (mediaType !== 'application/json') return null;
  let body: unknown;
  try {
    body = JSON.parse(String(payload));
  } catch {
    return `${status} with a body that is not JSON`;
  }
  const validate = validatorOf(content.schema);
  if (validate(body)) return null;
  const errors = (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''}`).join('; ');
  return `${status} ${JSON.stringify(body).slice(0, 300)}: ${errors}`;
}

/** Adds the check to `app` (before it is ready); the answers found undocumented so far. */
export function auditAnswers(app: FastifyInstance): () => string[] {
  const found: string[] = [];
  app.addHook('onSend', async (request, reply, payload) => {
    const route = responsesByRoute.get(`${request.method} ${request.routeOptions.url ?? ''}`);
    if (!route) return payload;
    const problem = undocumented(route.responses, reply.statusCode, String(reply.getHeader('content-type') ?? ''), payload);
    if (problem) found.push(`${route.name}: ${problem}`);
    return payload;
  });
  return () => [...found];
}
