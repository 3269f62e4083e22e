/** Sign-in, sign-out and unlock (refresh-tokens) calls of spec §7. */
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Credentials, RefreshTokensRequest } from '../../contract/api.ts';
import { StatusCode } from '../../contract/statusCodes.ts';
import { refreshTokensSchema, signInSchema } from '../../contract/validation.ts';
import type { Database } from '../db/database.ts';
import { users } from '../db/schema.ts';
import { bearerToken } from '../http.ts';
import { decoySecretHash, verifySecret } from '../secrets.ts';
import type { Sessions } from '../sessions.ts';

/** Wrong unlock codes allowed before the session is ended and sign-in is required. */
export const unlockAttemptLimit = 5;

export function registerAuthRoutes(app: FastifyInstance, db: Database, sessions: Sessions): void {
  app.post<{ Body: Credentials }>('/sign-in', { schema: { body: signInSchema } }, async (request, reply) => {
    const { email, password } = request.body;
    const [user] = await db.select().from(users).where(sql`lower(${users.email}) = lower(${email})`);
    const passwordMatches = await verifySecret(password, user?.passwordHash ?? decoySecretHash);
    if (!user || !passwordMatches) {
      return reply.code(401).send({ statusCode: StatusCode.INVALID_CREDENTIALS });
    }
    // A fresh sign-in proves identity again, so earlier wrong unlock codes no longer count.
    await db.update(users).set({ unlockFailures: 0 }).where(eq(users.id, user.id));
    const tokens = await sessions.startSession(user.id);
    return { statusCode: StatusCode.SUCCESS, ...tokens, isInternal: user.isInternal };
  });

  /** Ends the session on the server: the refresh-token family is revoked, so its access tokens stop too. */
  app.post('/sign-out', async (request) => {
    const presented = bearerToken(request);
    if (presented) {
      const found = await sessions.findRefreshToken(presented);
      if (found.ok) await sessions.revokeFamily(found.row.familyId);
      else {
        const access = await sessions.checkAccessToken(presented);
        if (access.ok) await sessions.revokeFamily(access.claims.familyId);
      }
    }
    return { statusCode: StatusCode.SUCCESS };
  });

  app.post<{ Body: RefreshTokensRequest }>(
    '/refresh-tokens',
    { schema: { body: refreshTokensSchema } },
    async (request, reply) => {
      const presented = bearerToken(request);
      const found = presented ? await sessions.findRefreshToken(presented) : { ok: false as const };
      if (!found.ok) return reply.code(401).send({ statusCode: StatusCode.SIGN_IN_REQUIRED });

      const [user] = await db.select().from(users).where(eq(users.id, found.row.userId));
      if (!user?.unlockCodeHash || user.unlockFailures >= unlockAttemptLimit) {
        await sessions.revokeFamily(found.row.familyId);
        return reply.code(401).send({ statusCode: StatusCode.SIGN_IN_REQUIRED });
      }

      if (!(await verifySecret(request.body.unlockCode, user.unlockCodeHash))) {
        // Counted in the database with a bounded update, so parallel guesses cannot pass the limit.
        const [counted] = await db
          .update(users)
          .set({ unlockFailures: sql`${users.unlockFailures} + 1` })
          .where(sql`${users.id} = ${user.id} and ${users.unlockFailures} < ${unlockAttemptLimit}`)
          .returning({ unlockFailures: users.unlockFailures });
        const attemptsLeft = Math.max(0, unlockAttemptLimit - (counted?.unlockFailures ?? unlockAttemptLimit));
        if (attemptsLeft === 0) await sessions.revokeFamily(found.row.familyId);
        return reply.code(401).send({ statusCode: StatusCode.INVALID_REFRESH_CREDENTIALS, attemptsLeft });
      }

      const tokens = await sessions.rotate(found.row);
      if (!tokens) return reply.code(401).send({ statusCode: StatusCode.SIGN_IN_REQUIRED });
      await db.update(users).set({ unlockFailures: 0 }).where(eq(users.id, user.id));
      return { statusCode: StatusCode.SUCCESS, ...tokens, isInternal: user.isInternal };
    },
  );
}
