/** The request schemas of contract/account/routes.ts (the server and the OpenAPI document use them; the web app does not). */
import { setUnlockCodeSchema } from '../validation.ts';
import type { RequestSchemas } from '../shared/route.ts';
import type { accountRoutes } from './routes.ts';

export const accountSchemas = {
  getUser: null,
  setUnlockCode: setUnlockCodeSchema,
} satisfies RequestSchemas<typeof accountRoutes>;
