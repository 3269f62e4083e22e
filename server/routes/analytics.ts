/** Analytics intake: the app sends events in batches; they are stored for product analysis. */
import type { FastifyInstance } from 'fastify';
import type { AnalyticsBatch } from '../../contract/api.ts';
import { StatusCode } from '../../contract/statusCodes.ts';
import { analyticsBatchSchema } from '../../contract/validation.ts';
import type { Database } from '../db/database.ts';
import { analyticsEvents } from '../db/schema.ts';
import { bearerToken } from '../http.ts';
import type { Sessions } from '../sessions.ts';

export function registerAnalyticsRoutes(app: FastifyInstance, db: Database, sessions: Sessions): void {
  app.post<{ Body: AnalyticsBatch }>(
    '/analytics/events',
    { schema: { body: analyticsBatchSchema }, bodyLimit: 64 * 1024 },
    async (request) => {
      const token = bearerToken(request);
      const access = token ? await sessions.checkAccessToken(token) : undefined;
      const userId = access?.ok ? access.claims.userId : null;
      const deviceUuid = String(request.headers['device-uuid'] ?? '').slice(0, 64) || null;
      if (request.body.events.length > 0) {
        await db.insert(analyticsEvents).values(
          request.body.events.map((event) => ({
            name: event.name,
            userId,
            deviceUuid,
            properties: event.properties,
            occurredAt: Number.isNaN(Date.parse(event.at)) ? new Date() : new Date(event.at),
          })),
        );
      }
      return { statusCode: StatusCode.SUCCESS };
    },
  );
}
