/** The request schemas of contract/home/routes.ts (the server and the OpenAPI document use them; the web app does not). */
import type { RequestSchemas } from '../shared/route.ts';
import type { homeRoutes } from './routes.ts';

export const homeSchemas = {
  getHome: null,
} satisfies RequestSchemas<typeof homeRoutes>;
