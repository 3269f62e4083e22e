/** The request schemas of contract/account/routes.ts (the server and the OpenAPI document use them; the web app does not). */
import { setUnlockCodeSchema } from '../validation.ts';
import type { RequestSchemas, RouteSummaries } from '../shared/route.ts';
import type { accountRoutes } from './routes.ts';

export const accountSchemas = {
  getUser: null,
  setUnlockCode: setUnlockCodeSchema,
} satisfies RequestSchemas<typeof accountRoutes>;

/** What each call does, in one line: the OpenAPI document's summaries and docs/api.md's (never in the web app's bundle). */
export const accountSummaries = {
  getUser: "The cardholder's name, contact details and address.",
  setUnlockCode:
    'Set a new unlock code (Manage account) with the current one; a wrong current code counts as a wrong unlock code, and a lockout refuses it as /refresh-tokens does. The same change sent again once made (its answer lost) answers 200 {0} and counts nothing.',
} satisfies RouteSummaries<typeof accountRoutes>;
