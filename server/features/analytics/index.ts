/**
 * What the app reports about itself: analytics events, stored for product analysis, and error
 * reports (the sandbox stand-in for an error-tracking vendor; production swaps in the vendor's
 * adapter). Both are redacted again here: the app's own redaction might have missed something.
 */
import type { FastifyInstance } from 'fastify';
import { analyticsRoutes as routes } from '../../../contract/analytics/routes.ts';
import { analyticsSchemas } from '../../../contract/analytics/schemas.ts';
import { redactAnalytics, redactContext, redactText } from '../../../contract/shared/redaction.ts';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import { analyticsEvents, errorReports } from '../../db/schema/index.ts';
import type { Services } from '../../services.ts';
import { analyticsLimit } from '../../attemptLimits.ts';
import { clientWait } from '../../shared/clientLimits.ts';
import { bearerToken, deviceUuidOf, reportedTime, tooMany } from '../../shared/http.ts';
import { routeServer } from '../../shared/routeServer.ts';

const batchLimit = 64 * 1024;

export function analyticsFeature(app: FastifyInstance, services: Services): void {
  const { serve } = routeServer(app, services, analyticsSchemas);
  const { db, sessions, config } = services;

  serve(
    routes.sendAnalyticsEvents,
    async (batch, request, reply) => {
      const wait = await clientWait(services.limits, request, analyticsLimit);
      if (wait > 0) return tooMany(reply, wait);
      const token = bearerToken(request);
      const access = token ? await sessions.checkAccessToken(token) : undefined;
      // Events sent with a signed-out (revoked) session are dropped: nobody is acting in it any more.
      if (access?.ok && (await sessions.isFamilyRevoked(access.claims.familyId))) return { statusCode: StatusCode.SUCCESS };
      const userId = access?.ok ? access.claims.userId : null;
      const deviceUuid = deviceUuidOf(request);
      // The app redacts too; this is the second line, in case a token slipped into a property.
      const userProperties = redactAnalytics(batch.userProperties ?? {});
      if (batch.events.length > 0) {
        await db.insert(analyticsEvents).values(
          batch.events.map((event) => ({
            name: event.name,
            userId,
            deviceUuid,
            sessionId: event.sessionId,
            properties: redactAnalytics(event.properties),
            userProperties,
            occurredAt: reportedTime(event.at),
          })),
        );
      }
      return { statusCode: StatusCode.SUCCESS };
    },
    { brokenRule: 'badRequest', bodyLimit: batchLimit },
  );

  // Production reports errors to a vendor through its own adapter; this intake is the sandbox's.
  if (!config.sandbox) return;
  serve(
    routes.sendErrorReports,
    async ({ reports }, request) => {
      if (reports.length > 0) {
        const deviceUuid = deviceUuidOf(request);
        await db.insert(errorReports).values(
          reports.map((report) => ({
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
    { brokenRule: 'badRequest', bodyLimit: batchLimit },
  );
}
