/**
 * Checks every answer a test app gives to a route table call against the answers the OpenAPI document
 * lists for it (contract/openapi.ts `documentedAnswers`): its HTTP status, and the statusCode in
 * its JSON body (a file call's 200 is its file). What a real client built from the document would
 * meet, over every request of the server's tests; TestApp.close() fails on any answer not listed.
 */
import type { FastifyInstance } from 'fastify';
import { allRoutes } from '../../contract/routes.ts';
import { documentedAnswers } from '../../contract/openapi.ts';
import type { HttpStatus, Route } from '../../contract/shared/route.ts';

/** `GET /cms/config/:key`, as Fastify names the route it matched. */
const keyOf = (method: string, url: string) => `${method} ${url}`;
const routesByKey = new Map(allRoutes.map((route) => [keyOf(route.method, `${route.base}${route.path.replace(/\{(\w+)\}/g, ':$1')}`), route]));

function undocumented(route: Route, status: number, type: string, payload: unknown): string | null {
  if (route.file && status === 200) return type.startsWith(route.file) ? null : `200 as ${type}, not ${route.file}`;
  let statusCode: unknown;
  try {
    statusCode = type.startsWith('application/json') && typeof payload === 'string' ? (JSON.parse(payload) as { statusCode?: unknown }).statusCode : undefined;
  } catch {
    statusCode = undefined;
  }
  const listed = documentedAnswers(route)[status as HttpStatus];
  return listed?.includes(statusCode as number) ? null : `${status} {statusCode: ${JSON.stringify(statusCode)}} (${type || 'no content type'})`;
}

/** Adds the check to `app` (before it is ready); the answers found undocumented so far. */
export function auditAnswers(app: FastifyInstance): () => string[] {
  const found: string[] = [];
  app.addHook('onSend', async (request, reply, payload) => {
    const route = routesByKey.get(keyOf(request.method, request.routeOptions.url ?? ''));
    if (!route) return payload;
    const problem = undocumented(route, reply.statusCode, String(reply.getHeader('content-type') ?? ''), payload);
    if (problem) found.push(`${route.name}: ${problem}`);
    return payload;
  });
  return () => [...found];
}
