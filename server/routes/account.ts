/** Account calls that need an access token: home and user (spec §7). */
import type { FastifyInstance } from 'fastify';
import { StatusCode } from '../../contract/shared/statusCodes.ts';
import { loadHome, loadUser } from '../accounts.ts';
import type { Database } from '../db/database.ts';
import { requireAccess } from '../http.ts';
import type { Sessions } from '../sessions.ts';

export function registerAccountRoutes(app: FastifyInstance, db: Database, sessions: Sessions): void {
  const preHandler = requireAccess(sessions);

  // The home query itself refuses a revoked session (one round trip instead of two).
  app.get('/home', { preHandler: requireAccess(sessions, { familyCheckedByHandler: true }) }, async (request, reply) => {
    const home = await loadHome(db, request.access);
    // Without an account row the query cannot tell, so the session is checked on its own then.
    const revoked = home === 'revoked' || (home === null && (await sessions.isFamilyRevoked(request.access.familyId)));
    if (revoked) return reply.code(401).send({ statusCode: StatusCode.SIGN_IN_REQUIRED });
    return home ?? reply.code(404).send({ statusCode: StatusCode.NOT_ALLOWED });
  });

  app.get('/user', { preHandler }, async (request, reply) => {
    const user = await loadUser(db, request.access.userId);
    return user ? { statusCode: StatusCode.SUCCESS, user } : reply.code(404).send({ statusCode: StatusCode.NOT_ALLOWED });
  });
}
