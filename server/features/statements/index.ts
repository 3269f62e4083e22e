/**
 * Statements (spec §2 /statements, §7 GET /statements): each month's totals since the account opened,
 * and a month's statement as a PDF in the reader's language (GET /statement), both read from the
 * ledger's posted transfers (queries.ts). The PDF code (pdf-lib, fontkit) and its fonts are not loaded
 * with the server: `npm start` loads them once it listens (prepareStatementPdf), anything else with the
 * first statement asked for.
 */
import type { FastifyInstance } from 'fastify';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import { statementsRoutes as routes } from '../../../contract/statements/routes.ts';
import { statementsSchemas } from '../../../contract/statements/schemas.ts';
import { statementFileName } from '../../../contract/statements/types.ts';
import type { Services } from '../../services.ts';
import { routeServer } from '../../shared/routeServer.ts';
import { loadMonthStatement, loadStatements, type MonthStatement } from './queries.ts';

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
        .header('Content-Disposition', `attachment; filename="${statementFileName(month, locale)}"`)
        .send(Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength));
    },
    { brokenRule: 'badRequest' },
  );
}

/**
 * A month of nobody's: written once by prepareStatementPdf, in Spanish (its accents), and sent nowhere.
 * 40 rows, a deposit every tenth, is enough to compile the code a 500-row statement runs.
 */
const warmUpStatement: MonthStatement = {
  month: '2025-01',
  openingBalance: 0,
  credits: 4 * 10_000,
  debits: 36 * 1_000,
  fees: 0,
  feesThisYear: 0,
  closingBalance: 4_000,
  cardholderName: 'Peña',
  prn: '400000000000',
  rows: Array.from({ length: 40 }, (_, index) => ({
    id: `warm-up-${index}`,
    at: Date.UTC(2025, 0, 1 + (index % 28), 12),
    kind: index % 10 === 0 ? 'deposit' : 'purchase',
    counterparty: index % 10 === 0 ? 'Nómina' : 'Tienda',
    location: index % 10 === 0 ? null : 'Fresno, CA',
    amount: index % 10 === 0 ? 10_000 : -1_000,
  })),
  pending: [],
  asOf: new Date(Date.UTC(2025, 0, 31, 23, 59, 59, 999)),
  inProgress: false,
};

/**
 * Loads the PDF code and the statement fonts and writes one statement nobody receives (about 1 s of
 * CPU here, mostly loading pdf-lib), so that the first statement asked for after a start waits for
 * neither the loading nor the compiling.
 */
export async function prepareStatementPdf(): Promise<void> {
  const { statementPdf } = await import('./pdf.ts');
  await statementPdf(warmUpStatement, 'es');
}
