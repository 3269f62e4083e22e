/** Remote experiment config (spec §6): public, so the app can gate features before sign-in. */
import { inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { experimentsRoutes as routes } from '../../../contract/experiments/routes.ts';
import { experimentsSchemas } from '../../../contract/experiments/schemas.ts';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import { type ExperimentAudience, experimentConfigs } from '../../db/schema/index.ts';
import type { Services } from '../../services.ts';
import { routeServer } from '../../shared/routeServer.ts';

export function experimentsFeature(app: FastifyInstance, services: Services): void {
  const { serve } = routeServer(app, services, experimentsSchemas);
  const { db } = services;

  serve(routes.getExperiments, async ({ isInternal }, _request, reply) => {
    const audiences: ExperimentAudience[] = isInternal === 'true' ? ['internal', 'everyone'] : ['everyone'];
    const rows = await db.select().from(experimentConfigs).where(inArray(experimentConfigs.audience, audiences));
    // Internal users get their own config when there is one, everyone's otherwise.
    const config = rows.find((row) => row.audience === 'internal') ?? rows[0];
    if (!config) return reply.code(404).send({ statusCode: StatusCode.NOT_ALLOWED });
    return { statusCode: StatusCode.SUCCESS, flags: config.flags };
  });
}
