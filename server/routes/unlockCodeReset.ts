/**
 * Resetting the unlock code with the refresh token (spec §2 /reset-unlock-code, §7): the SSN proves
 * identity (`POST /verify/ssn/logged-in-refresh-token` → a single-use ssnToken), then
 * `POST /reset-unlock-code` spends it, stores the new code, ends the unlock lockout and rotates the
 * refresh token. The only way out of an unlock lockout.
 */
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { StatusCode } from '../../contract/shared/statusCodes.ts';
import { resetUnlockCodeSchema, ServerFieldError, verifySsnLoggedInSchema } from '../../contract/validation.ts';
import { createAttemptLimits } from '../attemptLimits.ts';
import type { ServerConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { users } from '../db/schema.ts';
import { bearerToken } from '../http.ts';
import { hashSecret } from '../secrets.ts';
import type { Sessions } from '../sessions.ts';
import { checkAccountSsn, issueSsnToken, refuseSsn, spendSsnToken } from '../ssn.ts';
import { failedValidation, validBody } from './registration.ts';

export function registerUnlockCodeResetRoutes(app: FastifyInstance, db: Database, sessions: Sessions, config: ServerConfig): void {
  const limits = createAttemptLimits(db);

  /** The live refresh token presented as bearer, or 401 SIGN_IN_REQUIRED (expired, revoked family, spent). */
  async function liveRefreshToken(request: FastifyRequest, reply: FastifyReply) {
    const presented = bearerToken(request);
    const found = presented ? await sessions.findRefreshToken(presented) : { ok: false as const };
    if (found.ok) return found.row;
    reply.code(401).send({ statusCode: StatusCode.SIGN_IN_REQUIRED });
    return undefined;
  }

  app.post('/verify/ssn/logged-in-refresh-token', async (request, reply) => {
    const session = await liveRefreshToken(request, reply);
    if (!session) return reply;
    const body = validBody(verifySsnLoggedInSchema, request, reply);
    if (!body) return reply;
    const [user] = await db
      .select({ id: users.id, email: users.email, ssnHash: users.ssnHash })
      .from(users)
      .where(eq(users.id, session.userId));
    if (!user) return reply.code(401).send({ statusCode: StatusCode.SIGN_IN_REQUIRED });

    const check = await checkAccountSsn(limits, config.ssnHashKey, user, user.email, body.ssn);
    if (check.kind !== 'match') return refuseSsn(reply, check);
    request.log.info('SSN verified for an unlock-code reset');
    return { statusCode: StatusCode.SUCCESS, ssnToken: await issueSsnToken(db, user.id, 'reset-unlock-code') };
  });

  app.post('/reset-unlock-code', async (request, reply) => {
    const session = await liveRefreshToken(request, reply);
    if (!session) return reply;
    const body = validBody(resetUnlockCodeSchema, request, reply);
    if (!body) return reply;

    // Hashed before the token is spent, so the spend and what follows stay close together.
    const unlockCodeHash = await hashSecret(body.unlockCode);
    if (!(await spendSsnToken(db, body.ssnToken, session.userId, 'reset-unlock-code'))) {
      return failedValidation(reply, { ssnToken: ServerFieldError.ssnTokenUnverified });
    }
    // Same rules as /refresh-tokens: a spent refresh token presented again revokes its family.
    const tokens = await sessions.rotate(session);
    if (!tokens) return reply.code(401).send({ statusCode: StatusCode.SIGN_IN_REQUIRED });
    const [user] = await db
      .update(users)
      .set({ unlockCodeHash, unlockFailures: 0 })
      .where(eq(users.id, session.userId))
      .returning({ isInternal: users.isInternal });
    request.log.info('unlock code reset');
    return { statusCode: StatusCode.SUCCESS, ...tokens, isInternal: user?.isInternal ?? false };
  });
}
