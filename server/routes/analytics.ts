/** Analytics intake: the app sends events in batches; they are stored for product analysis. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AnalyticsBatch } from '../../contract/analytics/types.ts';
import { redactStrings } from '../../contract/shared/redaction.ts';
import { StatusCode } from '../../contract/shared/statusCodes.ts';
import { analyticsBatchSchema } from '../../contract/validation.ts';
import type { Database } from '../db/database.ts';
import { analyticsEvents } from '../db/schema.ts';
import { bearerToken } from '../http.ts';
import type { Sessions } from '../sessions.ts';

/** The Device-UUID header the app sends with every call; absent or empty is null. */
export function deviceUuidOf(request: FastifyRequest): string | null {
  return String(request.headers['device-uuid'] ?? '').slice(0, 64) || null;
}

/** The time the app says something happened; an unreadable one becomes the time it arrived. */
export function reportedTime(at: string): Date {
  return Number.isNaN(Date.parse(at)) ? new Date() : new Date(at);
}

export function registerAnalyticsRoutes(app: FastifyInstance, db: Database, sessions: Sessions): void {
  app.post<{ Body: AnalyticsBatch }>(
    '/analytics/events',
    { schema: { body: analyticsBatchSchema }, bodyLimit: 64 * 1024 },
    async (request) => {
      const token = bearerToken(request);
      const access = token ? await sessions.checkAccessToken(token) : undefined;
      const userId = access?.ok ? access.claims.userId : null;
      const deviceUuid = deviceUuidOf(request);
      // The app redacts too; this is the second line, in case a token slipped into a property.
      const userProperties = redactStrings(request.body.userProperties ?? {});
      if (request.body.events.length > 0) {
        await db.insert(analyticsEvents).values(
          request.body.events.map((event) => ({
            name: event.name,
            userId,
            deviceUuid,
            sessionId: event.sessionId,
            properties: redactStrings(event.properties),
            userProperties,
            occurredAt: reportedTime(event.at),
          })),
        );
      }
      return { statusCode: StatusCode.SUCCESS };
    },
  );
}
