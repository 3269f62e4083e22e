/** Agreements (spec §3: E-Sign, Terms of use, Cardholder Agreement) a signed-in cardholder accepts, and the check. */
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { agreed, agreementKinds, type Legal } from '../../contract/identity/types.ts';
import { StatusCode } from '../../contract/shared/statusCodes.ts';
import { acceptAgreementSchema, acceptedAgreementQuery, type AcceptedAgreementQuery } from '../../contract/validation.ts';
import type { Database } from '../db/database.ts';
import { agreementAcceptances } from '../db/schema.ts';
import { requireAccess } from '../http.ts';
import type { Sessions } from '../sessions.ts';

export function registerAgreementRoutes(app: FastifyInstance, db: Database, sessions: Sessions): void {
  // Before body validation: a caller without a valid token learns nothing about the body's rules.
  const preValidation = requireAccess(sessions);

  /** Records every agreement marked 'agreed' (the first acceptance's time is kept); null ones are left alone. */
  app.post<{ Body: { legal: Legal } }>(
    '/accept-agreement',
    { preValidation, schema: { body: acceptAgreementSchema } },
    async (request) => {
      const kinds = agreementKinds.filter((kind) => request.body.legal[kind] === agreed);
      if (kinds.length > 0) {
        await db
          .insert(agreementAcceptances)
          .values(kinds.map((kind) => ({ userId: request.access.userId, kind })))
          .onConflictDoNothing();
      }
      return { statusCode: StatusCode.SUCCESS };
    },
  );

  app.get<{ Querystring: AcceptedAgreementQuery }>(
    '/accepted-agreement',
    { preValidation, schema: { querystring: acceptedAgreementQuery } },
    async (request) => {
      const [row] = await db
        .select({ id: agreementAcceptances.id })
        .from(agreementAcceptances)
        .where(and(eq(agreementAcceptances.userId, request.access.userId), eq(agreementAcceptances.kind, request.query.agreement)));
      return { statusCode: StatusCode.SUCCESS, agreed: row !== undefined };
    },
  );
}
