/** What the app reports about itself (spec §7 analytics): events in batches, and error reports in sandbox mode. */
import type { MayBeTooMany, StatusAnswer } from '../shared/answers.ts';
import { route } from '../shared/route.ts';
import type { AnalyticsBatch, ErrorReportBatch } from './types.ts';

export const analyticsRoutes = {
  sendAnalyticsEvents: route<AnalyticsBatch, StatusAnswer & MayBeTooMany>({
    name: 'sendAnalyticsEvents',
    method: 'POST',
    path: '/analytics/events',
    caller: 'accessToken',
    tokenOptional: true,
    answers: { 200: [0], 400: [2], 413: [2], 429: [201] },
  }),
  sendErrorReports: route<ErrorReportBatch, StatusAnswer>({
    name: 'sendErrorReports',
    method: 'POST',
    path: '/error-reports',
    caller: 'anonymous',
    // 404 outside sandbox mode: production reports errors to a vendor, not to this intake.
    answers: { 200: [0], 400: [2], 404: [3], 413: [2] },
  }),
};
