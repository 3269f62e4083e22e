/** The request schemas of contract/experiments/routes.ts (the server and the OpenAPI document use them; the web app does not). */
import { object, string } from 'yup';
import type { RequestSchemas, RouteSummaries } from '../shared/route.ts';
import type { experimentsRoutes } from './routes.ts';

const experimentsQuery = object({ isInternal: string().oneOf(['true', 'false']) }).noUnknown();

export const experimentsSchemas = {
  getExperiments: experimentsQuery,
} satisfies RequestSchemas<typeof experimentsRoutes>;

/** What each call does, in one line: the OpenAPI document's summaries and docs/api.md's (never in the web app's bundle). */
export const experimentsSummaries = {
  getExperiments: "The experiment flags for internal users or everyone; 404 when no config exists.",
} satisfies RouteSummaries<typeof experimentsRoutes>;
