/** The request schemas of contract/analytics/routes.ts (the server and the OpenAPI document use them; the web app does not). */
import { analyticsBatchSchema, errorReportBatchSchema } from '../validation.ts';
import type { RequestSchemas, RouteSummaries } from '../shared/route.ts';
import type { analyticsRoutes } from './routes.ts';

export const analyticsSchemas = {
  sendAnalyticsEvents: analyticsBatchSchema,
  sendErrorReports: errorReportBatchSchema,
} satisfies RequestSchemas<typeof analyticsRoutes>;

/** What each call does, in one line: the OpenAPI document's summaries and docs/api.md's (never in the web app's bundle). */
export const analyticsSummaries = {
  sendAnalyticsEvents:
    'Store a batch of analytics events (at most 50), with the user when the access token is live.',
  sendErrorReports:
    "Store the app's error reports (at most 20; sandbox mode only, a vendor's adapter in production).",
} satisfies RouteSummaries<typeof analyticsRoutes>;
