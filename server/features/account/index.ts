/** The signed-in cardholder's account (spec §7): GET /user and POST /set-unlock-code. */
import type { FastifyInstance } from 'fastify';
import { accountRoutes as routes } from '../../../contract/account/routes.ts';
import { accountSchemas } from '../../../contract/account/schemas.ts';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import { hashSecret } from '../../secrets.ts';
import type { Services } from '../../services.ts';
import { routeServer } from '../../shared/routeServer.ts';
import { loadUser, storeUnlockCode } from './queries.ts';

export function accountFeature(app: FastifyInstance, services: Services): void {
  const { serve } = routeServer(app, services, accountSchemas);
  const { db } = services;

  serve(routes.getUser, async (_query, request, reply) => {
    const user = await loadUser(db, request.access.userId);
    return user ? { statusCode: StatusCode.SUCCESS, user } : reply.code(404).send({ statusCode: StatusCode.NOT_ALLOWED });
  });

  serve(routes.setUnlockCode, async ({ unlockCode }, request, reply) => {
    const stored = await storeUnlockCode(db, request.access.userId, await hashSecret(unlockCode));
    return stored ? { statusCode: StatusCode.SUCCESS } : reply.code(403).send({ statusCode: StatusCode.NOT_ALLOWED });
  });
}
