/** The request schemas of contract/analytics/routes.ts (the server and the OpenAPI document use them; the web app does not). */
import { analyticsBatchSchema, errorReportBatchSchema } from '../validation.ts';
import type { RequestSchemas } from '../shared/route.ts';
import type { analyticsRoutes } from './routes.ts';

export const analyticsSchemas = {
  sendAnalyticsEvents: analyticsBatchSchema,
  sendErrorReports: errorReportBatchSchema,
} satisfies RequestSchemas<typeof analyticsRoutes>;
