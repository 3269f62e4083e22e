/** Sign-in (with a texted code when the cardholder needs one), sign-out and unlock (refresh-tokens) calls of spec §7. */
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { RefreshTokensRequest } from '../../contract/api.ts';
import type { SignInRequest } from '../../contract/auth.ts';
import { checkPhone, normaliseEmail } from '../../contract/rules.ts';
import { StatusCode } from '../../contract/statusCodes.ts';
import { refreshTokensSchema, signInSchema } from '../../contract/validation.ts';
import { createAttemptLimits, emailSubject, signInPolicy, unlockAttemptLimit } from '../attemptLimits.ts';
import type { ServerConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { users } from '../db/schema.ts';
import { bearerToken } from '../http.ts';
import type { SmsGateway } from '../partners/sms.ts';
import { decoySecretHash, verifySecret } from '../secrets.ts';
import type { Sessions } from '../sessions.ts';
import { codeTtlMinutes, createTextedCodes, maskedPhone, tooManyCodes } from '../textedCodes.ts';
import { registrationPartners } from './registration.ts';

export { unlockAttemptLimit } from '../attemptLimits.ts';

export function registerAuthRoutes(
  app: FastifyInstance,
  db: Database,
  sessions: Sessions,
  config: ServerConfig,
  sms: SmsGateway = registrationPartners(config, db).sms,
): void {
  const limits = createAttemptLimits(db);
  const codes = createTextedCodes(db, config.ssnHashKey, sms);

  /**
   * Spec §7 /sign-in, with a texted code for cardholders who need one (spec §8 MFA_REQUIRED). Wrong
   * email or password is counted per email in the database (unknown emails too); the fifth in a row
   * makes every sign-in for that email wait 15 minutes, right password included.
   */
  app.post<{ Body: SignInRequest }>('/sign-in', { schema: { body: signInSchema } }, async (request, reply) => {
    const { email, password, code } = request.body;
    const subject = emailSubject(email);
    const wait = await limits.waitSeconds(signInPolicy, subject);
    if (wait > 0) return reply.code(401).send({ statusCode: StatusCode.INVALID_CREDENTIALS, retryAfterSeconds: wait });

    const [user] = await db.select().from(users).where(sql`lower(${users.email}) = lower(${normaliseEmail(email)})`);
    const passwordMatches = await verifySecret(password, user?.passwordHash ?? decoySecretHash);
    if (!user || !passwordMatches) {
      const counted = await limits.countFailure(signInPolicy, subject);
      return reply
        .code(401)
        .send(
          counted.locked
            ? { statusCode: StatusCode.INVALID_CREDENTIALS, retryAfterSeconds: counted.retryAfterSeconds }
            : { statusCode: StatusCode.INVALID_CREDENTIALS },
        );
    }

    if (user.mfaRequired) {
      const phone = maskedPhone(user.phone);
      if (checkPhone(user.phone)) return reply.code(401).send({ statusCode: StatusCode.INVALID_PHONE_NUMBER, phone });
      if (code === undefined) {
        const issued = await codes.issue(
          user.phone,
          'sign-in',
          (sent) => `Your Providers sign-in code is ${sent}. It expires in ${codeTtlMinutes} minutes. Never share it.`,
        );
        if (issued.kind === 'limit') return tooManyCodes(reply, issued.retryAfterSeconds);
        const statusCode = {
          landline: StatusCode.INVALID_PHONE_LANDLINE,
          failed: StatusCode.MFA_ERROR,
          sent: StatusCode.MFA_REQUIRED,
        }[issued.kind];
        return reply.code(401).send({ statusCode, phone });
      }
      const checked = await codes.check(user.phone, 'sign-in', code);
      if (checked.kind === 'locked') return tooManyCodes(reply, checked.retryAfterSeconds);
      if (checked.kind === 'wrong') {
        return reply
          .code(401)
          .send(
            checked.attemptsLeft === undefined
              ? { statusCode: StatusCode.INVALID_MFA_CODE }
              : { statusCode: StatusCode.INVALID_MFA_CODE, attemptsLeft: checked.attemptsLeft },
          );
      }
    }

    await limits.reset(signInPolicy, subject);
    // Earlier wrong unlock codes still count: after a lockout only an unlock-code reset (SSN) clears them.
    const tokens = await sessions.startSession(user.id);
    return {
      statusCode: StatusCode.SUCCESS,
      ...tokens,
      isInternal: user.isInternal,
      mustResetUnlockCode: user.unlockFailures >= unlockAttemptLimit,
    };
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
      if (!user?.unlockCodeHash) {
        await sessions.revokeFamily(found.row.familyId);
        return reply.code(401).send({ statusCode: StatusCode.SIGN_IN_REQUIRED });
      }
      // Locked out: every session ended when the limit was reached; a session from a later sign-in
      // is kept, as /reset-unlock-code needs it, but it cannot unlock until the code is reset.
      if (user.unlockFailures >= unlockAttemptLimit) return reply.code(401).send({ statusCode: StatusCode.SIGN_IN_REQUIRED });

      if (!(await verifySecret(request.body.unlockCode, user.unlockCodeHash))) {
        // Counted in the database with a bounded update, so parallel guesses cannot pass the limit.
        const [counted] = await db
          .update(users)
          .set({ unlockFailures: sql`${users.unlockFailures} + 1` })
          .where(sql`${users.id} = ${user.id} and ${users.unlockFailures} < ${unlockAttemptLimit}`)
          .returning({ unlockFailures: users.unlockFailures });
        const attemptsLeft = Math.max(0, unlockAttemptLimit - (counted?.unlockFailures ?? unlockAttemptLimit));
        if (attemptsLeft === 0) await sessions.revokeUserFamilies(user.id);
        return reply.code(401).send({ statusCode: StatusCode.INVALID_REFRESH_CREDENTIALS, attemptsLeft });
      }

      const tokens = await sessions.rotate(found.row);
      if (!tokens) return reply.code(401).send({ statusCode: StatusCode.SIGN_IN_REQUIRED });
      await db.update(users).set({ unlockFailures: 0 }).where(eq(users.id, user.id));
      return { statusCode: StatusCode.SUCCESS, ...tokens, isInternal: user.isInternal };
    },
  );
}
