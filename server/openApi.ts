/** GET /api/v1/openapi.json: the OpenAPI 3.1 document of the route tables, made once at start. */
import type { FastifyInstance } from 'fastify';
import { openApiDocument } from '../contract/openapi.ts';
import { cardApiBase } from '../contract/shared/route.ts';

export const openApiPath = `${cardApiBase}/openapi.json`;

export function registerOpenApi(app: FastifyInstance): void {
  const document = openApiDocument();
  app.get(openApiPath, async () => document);
}
