/** The request schemas of contract/home/routes.ts (the server and the OpenAPI document use them; the web app does not). */
import type { RequestSchemas, RouteSummaries } from '../shared/route.ts';
import type { homeRoutes } from './routes.ts';

export const homeSchemas = {
  getHome: null,
} satisfies RequestSchemas<typeof homeRoutes>;

/** What each call does, in one line: the OpenAPI document's summaries and docs/api.md's (never in the web app's bundle). */
export const homeSummaries = {
  getHome: 'Balance, cards, recent transactions and the registration wave.',
} satisfies RouteSummaries<typeof homeRoutes>;
