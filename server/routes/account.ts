/** Account calls that need an access token: home and user (spec §7). */
import type { FastifyInstance } from 'fastify';
import { StatusCode } from '../../contract/statusCodes.ts';
import { loadHome, loadUser } from '../accounts.ts';
import type { Database } from '../db/database.ts';
import { requireAccess } from '../http.ts';
import type { Sessions } from '../sessions.ts';

export function registerAccountRoutes(app: FastifyInstance, db: Database, sessions: Sessions): void {
  const preHandler = requireAccess(sessions);

  app.get('/home', { preHandler }, async (request, reply) => {
    const home = await loadHome(db, request.access.userId);
    return home ?? reply.code(404).send({ statusCode: StatusCode.NOT_ALLOWED });
  });

  app.get('/user', { preHandler }, async (request, reply) => {
    const user = await loadUser(db, request.access.userId);
    return user ? { statusCode: StatusCode.SUCCESS, user } : reply.code(404).send({ statusCode: StatusCode.NOT_ALLOWED });
  });
}
