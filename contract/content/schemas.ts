/** The request schemas of contract/content/routes.ts (the server and the OpenAPI document use them; the web app does not). */
import type { RequestSchemas, RouteSummaries } from '../shared/route.ts';
import type { contentRoutes } from './routes.ts';

export const contentSchemas = {
  getContent: null,
} satisfies RequestSchemas<typeof contentRoutes>;

/** What each call does, in one line: the OpenAPI document's summaries and docs/api.md's (never in the web app's bundle). */
export const contentSummaries = {
  getContent: 'A content document (FAQ, rewards, contact form categories …); 404 when there is none.',
} satisfies RouteSummaries<typeof contentRoutes>;
