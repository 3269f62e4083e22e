/**
 * Resetting a forgotten password (spec §2 /reset-password, §4, §7), no token: `/verify/email` (in
 * registration.ts), `POST /verify/ssn {email, ssn}` → ssnToken, `POST /change-password {email, ssn,
 * password}`. The SSN is checked again by /change-password under the same per-account limit; an
 * unknown email is answered exactly like a wrong SSN. A new password ends every session of the user.
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ChangePasswordRequest } from '../../contract/auth.ts';
import { normaliseEmail } from '../../contract/rules.ts';
import { StatusCode } from '../../contract/statusCodes.ts';
import { changePasswordSchema, verifySsnSchema } from '../../contract/validation.ts';
import { createAttemptLimits, emailSubject, signInPolicy } from '../attemptLimits.ts';
import type { ServerConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { users } from '../db/schema.ts';
import { hashSecret } from '../secrets.ts';
import type { Sessions } from '../sessions.ts';
import { checkAccountSsn, issueSsnToken, refuseSsn } from '../ssn.ts';
import { validBody } from './registration.ts';

export function registerPasswordResetRoutes(app: FastifyInstance, db: Database, sessions: Sessions, config: ServerConfig): void {
  const limits = createAttemptLimits(db);

  async function accountOf(email: string) {
    const [user] = await db
      .select({ id: users.id, email: users.email, ssnHash: users.ssnHash })
      .from(users)
      .where(sql`lower(${users.email}) = lower(${normaliseEmail(email)})`);
    return user;
  }

  app.post('/verify/ssn', async (request, reply) => {
    const body = validBody(verifySsnSchema, request, reply);
    if (!body) return reply;
    const user = await accountOf(body.email);
    const check = await checkAccountSsn(limits, config.ssnHashKey, user, body.email, body.ssn);
    if (check.kind !== 'match' || !user) return refuseSsn(reply, check.kind === 'match' ? { kind: 'wrong', attemptsLeft: 0 } : check);
    request.log.info('SSN verified for a password reset');
    return { statusCode: StatusCode.SUCCESS, ssnToken: await issueSsnToken(db, user.id, 'reset-password') };
  });

  app.post('/change-password', async (request, reply) => {
    const body = validBody(changePasswordSchema, request, reply) as ChangePasswordRequest | undefined;
    if (!body) return reply;
    const user = await accountOf(body.email);
    const check = await checkAccountSsn(limits, config.ssnHashKey, user, body.email, body.ssn);
    if (check.kind !== 'match' || !user) return refuseSsn(reply, check.kind === 'match' ? { kind: 'wrong', attemptsLeft: 0 } : check);

    const passwordHash = await hashSecret(body.password);
    await db.update(users).set({ passwordHash }).where(sql`${users.id} = ${user.id}`);
    // Sessions elsewhere end (someone else may have known the old password), and sign-in starts afresh.
    await sessions.revokeUserFamilies(user.id);
    await limits.reset(signInPolicy, emailSubject(user.email));
    request.log.info('password changed by reset');
    return { statusCode: StatusCode.SUCCESS };
  });
}
