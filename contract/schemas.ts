/**
 * Every feature's request schemas and summaries by entry name (the server, the OpenAPI document and
 * docs/api.md; never the web app, which would load yup and ship the docs text).
 */
import type { AnySchema } from 'yup';
import { accountSchemas, accountSummaries } from './account/schemas.ts';
import { activitySchemas, activitySummaries } from './activity/schemas.ts';
import { analyticsSchemas, analyticsSummaries } from './analytics/schemas.ts';
import { cardsSchemas, cardsSummaries } from './cards/schemas.ts';
import { contentSchemas, contentSummaries } from './content/schemas.ts';
import { experimentsSchemas, experimentsSummaries } from './experiments/schemas.ts';
import { homeSchemas, homeSummaries } from './home/schemas.ts';
import { identitySchemas, identitySummaries } from './identity/schemas.ts';
import { sessionSchemas, sessionSummaries } from './session/schemas.ts';
import { statementsSchemas, statementsSummaries } from './statements/schemas.ts';

export const requestSchemas: Readonly<Record<string, AnySchema | null>> = {
  ...identitySchemas,
  ...sessionSchemas,
  ...accountSchemas,
  ...homeSchemas,
  ...activitySchemas,
  ...statementsSchemas,
  ...cardsSchemas,
  ...experimentsSchemas,
  ...analyticsSchemas,
  ...contentSchemas,
};

export const routeSummaries: Readonly<Record<string, string>> = {
  ...identitySummaries,
  ...sessionSummaries,
  ...accountSummaries,
  ...homeSummaries,
  ...activitySummaries,
  ...statementsSummaries,
  ...cardsSummaries,
  ...experimentsSummaries,
  ...analyticsSummaries,
  ...contentSummaries,
};
