/** The home screen's data (spec §7 GET /home). */
import type { FastifyInstance } from 'fastify';
import { homeRoutes as routes } from '../../../contract/home/routes.ts';
import { homeSchemas } from '../../../contract/home/schemas.ts';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import type { Services } from '../../services.ts';
import { signInRequired } from '../../shared/http.ts';
import { routeServer } from '../../shared/routeServer.ts';
import { loadHome } from './queries.ts';

export function homeFeature(app: FastifyInstance, services: Services): void {
  const { serve } = routeServer(app, services, homeSchemas);
  const { db, sessions } = services;

  // The home query itself refuses a revoked session (one round trip instead of two).
  serve(
    routes.getHome,
    async (_query, request, reply) => {
      const home = await loadHome(db, request.access);
      // Without an account row the query cannot tell, so the session is checked on its own then.
      const revoked = home === 'revoked' || (home === null && (await sessions.isFamilyRevoked(request.access.familyId)));
      if (revoked) return signInRequired(reply);
      return home ?? reply.code(404).send({ statusCode: StatusCode.NOT_ALLOWED });
    },
    { familyCheckedByHandler: true },
  );
}
