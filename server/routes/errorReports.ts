/**
 * Error-report intake, the sandbox stand-in for an error-tracking vendor (production swaps in the
 * vendor's adapter). Reports are redacted again here: the app's own redaction might have missed one.
 */
import type { FastifyInstance } from 'fastify';
import type { ErrorReportBatch } from '../../contract/analytics/types.ts';
import { redactContext, redactText } from '../../contract/shared/redaction.ts';
import { StatusCode } from '../../contract/shared/statusCodes.ts';
import { errorReportBatchSchema } from '../../contract/validation.ts';
import type { Database } from '../db/database.ts';
import { errorReports } from '../db/schema.ts';
import { deviceUuidOf, reportedTime } from './analytics.ts';

export function registerErrorReportRoutes(app: FastifyInstance, db: Database): void {
  app.post<{ Body: ErrorReportBatch }>(
    '/error-reports',
    { schema: { body: errorReportBatchSchema }, bodyLimit: 64 * 1024 },
    async (request) => {
      if (request.body.reports.length > 0) {
        const deviceUuid = deviceUuidOf(request);
        await db.insert(errorReports).values(
          request.body.reports.map((report) => ({
            level: report.level,
            message: redactText(report.message),
            context: redactContext(report.context),
            deviceUuid,
            occurredAt: reportedTime(report.at),
          })),
        );
      }
      return { statusCode: StatusCode.SUCCESS };
    },
  );
}
