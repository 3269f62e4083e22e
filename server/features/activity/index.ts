/** Activity (spec §7 GET /transactions, GET /transaction): the cardholder's transactions, read from the ledger. */
import type { FastifyInstance } from 'fastify';
import { transactionsPageLimit } from '../../../contract/activity/limits.ts';
import { activityRoutes as routes } from '../../../contract/activity/routes.ts';
import { activitySchemas } from '../../../contract/activity/schemas.ts';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import type { Services } from '../../services.ts';
import { badRequest, signInRequired } from '../../shared/http.ts';
import { routeServer } from '../../shared/routeServer.ts';
import { decodeCursor, loadActivityPageForSession, loadTransaction } from './queries.ts';

export { activityRowsSql, transactionOf } from './queries.ts';

export function activityFeature(app: FastifyInstance, services: Services): void {
  const { serve } = routeServer(app, services, activitySchemas);
  const { db, sessions } = services;

  // The page's own statement refuses a revoked session (one round trip instead of two: the budget's call).
  serve(
    routes.getTransactions,
    async (query, request, reply) => {
      const { userId, familyId } = request.access;
      const cursor = query?.cursor === undefined ? null : decodeCursor(query.cursor);
      if (query?.cursor !== undefined && !cursor) {
        return (await sessions.isFamilyRevoked(familyId)) ? signInRequired(reply) : badRequest(reply);
      }
      const limit = query?.limit === undefined ? transactionsPageLimit : Number(query.limit);
      const page = await loadActivityPageForSession(db, { userId, familyId, cursor, limit, now: new Date() });
      if (page === 'revoked') return signInRequired(reply);
      return { statusCode: StatusCode.SUCCESS, ...page };
    },
    { familyCheckedByHandler: true },
  );

  serve(routes.getTransaction, async ({ id }, request, reply) => {
    const transaction = await loadTransaction(db, { userId: request.access.userId, id, now: new Date() });
    if (!transaction) return reply.code(404).send({ statusCode: StatusCode.NOT_ALLOWED });
    return { statusCode: StatusCode.SUCCESS, transaction };
  });
}
