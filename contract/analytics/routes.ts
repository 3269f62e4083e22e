/** What the app reports about itself (spec §7 analytics): events in batches, and error reports in sandbox mode. */
import type { StatusAnswer } from '../shared/answers.ts';
import { route } from '../shared/route.ts';
import type { AnalyticsBatch, ErrorReportBatch } from './types.ts';

export const analyticsRoutes = {
  sendAnalyticsEvents: route<AnalyticsBatch, StatusAnswer>({
    name: 'sendAnalyticsEvents',
    method: 'POST',
    path: '/analytics/events',
    caller: 'accessToken',
    tokenOptional: true,
    summary: 'Store a batch of analytics events (at most 50), with the user when the access token is live.',
    answers: { 200: [0], 400: [2], 413: [2] },
  }),
  sendErrorReports: route<ErrorReportBatch, StatusAnswer>({
    name: 'sendErrorReports',
    method: 'POST',
    path: '/error-reports',
    caller: 'anonymous',
    summary: "Store the app's error reports (at most 20; sandbox mode only, a vendor's adapter in production).",
    answers: { 200: [0], 400: [2], 413: [2] },
  }),
};
