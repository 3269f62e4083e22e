/**
 * Statements (spec §2 /statements, §7 GET /statements): each month's totals since the account opened,
 * and a month's statement as a PDF in the reader's language (GET /statement), both read from the
 * ledger's posted transfers (queries.ts). The PDF code (pdf-lib, fontkit) and its fonts load with the
 * first statement asked for, not at start.
 */
import type { FastifyInstance } from 'fastify';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import { statementsRoutes as routes } from '../../../contract/statements/routes.ts';
import { statementsSchemas } from '../../../contract/statements/schemas.ts';
import { statementFileName } from '../../../contract/statements/types.ts';
import type { Services } from '../../services.ts';
import { routeServer } from '../../shared/routeServer.ts';
import { loadMonthStatement, loadStatements } from './queries.ts';

export { type MonthStatement, loadMonthStatement } from './queries.ts';

export function statementsFeature(app: FastifyInstance, services: Services): void {
  const { serve } = routeServer(app, services, statementsSchemas);
  const { db } = services;

  serve(routes.getStatements, async (_query, request) => {
    const statements = await loadStatements(db, { userId: request.access.userId, now: new Date() });
    return { statusCode: StatusCode.SUCCESS, statements: statements ?? [] };
  });

  serve(
    routes.getStatementPdf,
    async ({ month, locale }, request, reply) => {
      const now = new Date();
      const statement = await loadMonthStatement(db, { userId: request.access.userId, month, now });
      if (!statement) return reply.code(404).send({ statusCode: StatusCode.NOT_ALLOWED });
      const { statementPdf } = await import('./pdf.ts');
      const pdf = await statementPdf(statement, locale, now);
      return reply
        .type('application/pdf')
        .header('Content-Disposition', `attachment; filename="${statementFileName(month)}"`)
        .send(Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength));
    },
    { brokenRule: 'badRequest' },
  );
}
