/**
 * Sign-in from inside the companion benefits app (embedded mode): the app hands over the companion
 * app's access token, and the cardholder linked to that companion user gets a card session.
 */
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { object } from 'yup';
import { StatusCode } from '../../contract/shared/statusCodes.ts';
import { unlockAttemptLimit } from '../attemptLimits.ts';
import { verifyCompanionToken } from '../companionTokens.ts';
import type { ServerConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { users } from '../db/schema.ts';
import { bearerToken } from '../http.ts';
import type { Sessions } from '../sessions.ts';

/** The token travels in the Authorization header; a body, when sent, must be an empty object. */
const noBody = object({}).noUnknown().nullable();

export function registerProvidersRoutes(app: FastifyInstance, db: Database, sessions: Sessions, config: ServerConfig): void {
  app.post('/providers/sign-in', { schema: { body: noBody } }, async (request, reply) => {
    const token = bearerToken(request);
    const check = token ? await verifyCompanionToken(token, config.companionTokenSecret) : undefined;
    if (!check?.ok) return reply.code(401).send({ statusCode: StatusCode.INVALID_CREDENTIALS });

    const [user] = await db.select().from(users).where(eq(users.providersUuid, check.claims.uuid));
    // A companion user without a card account: registration (embedded only) comes first.
    if (!user) return reply.code(403).send({ statusCode: StatusCode.NOT_ALLOWED });

    // Like a password sign-in, this does not end an unlock-code lockout: that takes the SSN reset.
    const tokens = await sessions.startSession(user.id);
    return {
      statusCode: StatusCode.SUCCESS,
      ...tokens,
      isInternal: user.isInternal,
      mustResetUnlockCode: user.unlockFailures >= unlockAttemptLimit,
    };
  });
}
