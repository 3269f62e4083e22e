/** The request schemas of contract/content/routes.ts (the server and the OpenAPI document use them; the web app does not). */
import type { RequestSchemas } from '../shared/route.ts';
import type { contentRoutes } from './routes.ts';

export const contentSchemas = {
  getContent: null,
} satisfies RequestSchemas<typeof contentRoutes>;
