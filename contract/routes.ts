/** Every feature's route table, one entry per API call: what the server, the client and the docs are made from. */
import { accountRoutes } from './account/routes.ts';
import { activityRoutes } from './activity/routes.ts';
import { cardsRoutes } from './cards/routes.ts';
import { analyticsRoutes } from './analytics/routes.ts';
import { contentRoutes } from './content/routes.ts';
import { experimentsRoutes } from './experiments/routes.ts';
import { homeRoutes } from './home/routes.ts';
import { identityRoutes } from './identity/routes.ts';
import { sessionRoutes } from './session/routes.ts';
import { statementsRoutes } from './statements/routes.ts';
import type { Route } from './shared/route.ts';

export const routeTables = {
  identity: identityRoutes,
  session: sessionRoutes,
  account: accountRoutes,
  home: homeRoutes,
  activity: activityRoutes,
  statements: statementsRoutes,
  cards: cardsRoutes,
  experiments: experimentsRoutes,
  analytics: analyticsRoutes,
  content: contentRoutes,
} as const;

export type Feature = keyof typeof routeTables;

export const allRoutes: readonly Route[] = Object.values(routeTables).flatMap((table) => Object.values(table) as Route[]);
