/**
 * Sandbox controls for testers and e2e tests (sandbox mode only, never in production).
 * POST /sandbox/sessions signs a user in with a chosen access-token lifetime, so session expiry
 * (REFRESH_REQUIRED → unlock) can be shown without waiting 15 minutes.
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { number, object } from 'yup';
import { StatusCode } from '../../contract/statusCodes.ts';
import { emailRule } from '../../contract/validation.ts';
import type { Database } from '../db/database.ts';
import { users } from '../db/schema.ts';
import type { Sessions } from '../sessions.ts';

const sessionRequest = object({
  email: emailRule,
  accessTtlSeconds: number().integer().min(1).max(3600).required(),
}).noUnknown();

export function registerSandboxRoutes(app: FastifyInstance, db: Database, sessions: Sessions): void {
  app.post<{ Body: { email: string; accessTtlSeconds: number } }>(
    '/sessions',
    { schema: { body: sessionRequest } },
    async (request, reply) => {
      const { email, accessTtlSeconds } = request.body;
      const [user] = await db.select().from(users).where(sql`lower(${users.email}) = lower(${email})`);
      if (!user) return reply.code(404).send({ statusCode: StatusCode.NOT_ALLOWED });
      const tokens = await sessions.startSession(user.id, accessTtlSeconds);
      return { statusCode: StatusCode.SUCCESS, ...tokens, isInternal: user.isInternal };
    },
  );
}
