/** Remote experiment config (spec §6): public, so the app can gate features before sign-in. */
import { inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { object, string } from 'yup';
import { StatusCode } from '../../contract/shared/statusCodes.ts';
import type { Database } from '../db/database.ts';
import { type ExperimentAudience, experimentConfigs } from '../db/schema.ts';

const experimentsQuery = object({ isInternal: string().oneOf(['true', 'false']) }).noUnknown();

export function registerExperimentRoutes(app: FastifyInstance, db: Database): void {
  app.get<{ Querystring: { isInternal?: 'true' | 'false' } }>(
    '/experiments',
    { schema: { querystring: experimentsQuery } },
    async (request, reply) => {
      const audiences: ExperimentAudience[] = request.query.isInternal === 'true' ? ['internal', 'everyone'] : ['everyone'];
      const rows = await db.select().from(experimentConfigs).where(inArray(experimentConfigs.audience, audiences));
      // Internal users get their own config when there is one, everyone's otherwise.
      const config = rows.find((row) => row.audience === 'internal') ?? rows[0];
      if (!config) return reply.code(404).send({ statusCode: StatusCode.NOT_ALLOWED });
      return { statusCode: StatusCode.SUCCESS, flags: config.flags };
    },
  );
}
