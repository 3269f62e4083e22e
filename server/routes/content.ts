/**
 * The content API under /cms (spec §7 content GETs). Documents live as JSON files in server/content;
 * an unknown key answers 404, which the app treats as "no content".
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { StatusCode } from '../../contract/shared/statusCodes.ts';

const contentFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'content');
const keyPattern = /^[a-z0-9-]{1,80}$/;

export function registerContentRoutes(app: FastifyInstance): void {
  app.get<{ Params: { key: string } }>('/config/:key', async (request, reply) => {
    const { key } = request.params;
    if (!keyPattern.test(key)) return reply.code(404).send({ statusCode: StatusCode.NOT_ALLOWED });
    try {
      const document = JSON.parse(await readFile(path.join(contentFolder, `${key}.json`), 'utf8'));
      return { statusCode: StatusCode.SUCCESS, data: document };
    } catch {
      return reply.code(404).send({ statusCode: StatusCode.NOT_ALLOWED });
    }
  });
}
