/**
 * The content API under /cms (spec §7 content GETs). Documents live as JSON files in
 * server/features/content/documents; an unknown key answers 404, which the app treats as "no content".
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { contentRoutes as routes } from '../../../contract/content/routes.ts';
import { contentSchemas } from '../../../contract/content/schemas.ts';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import type { Services } from '../../services.ts';
import { routeServer } from '../../shared/routeServer.ts';

const documentsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'documents');
const keyPattern = /^[a-z0-9-]{1,80}$/;

export function contentFeature(app: FastifyInstance, services: Services): void {
  const { serve } = routeServer(app, services, contentSchemas);

  serve(routes.getContent, async (_query, request: FastifyRequest, reply) => {
    const { key } = request.params as { key: string };
    if (!keyPattern.test(key)) return reply.code(404).send({ statusCode: StatusCode.NOT_ALLOWED });
    try {
      const document = JSON.parse(await readFile(path.join(documentsFolder, `${key}.json`), 'utf8'));
      return { statusCode: StatusCode.SUCCESS, data: document };
    } catch {
      return reply.code(404).send({ statusCode: StatusCode.NOT_ALLOWED });
    }
  });
}
