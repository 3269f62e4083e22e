/**
 * The whole route table of spec §2, assembled from each feature's subtree
 * (src/features/<feature>/routes.ts) under the root and access-token routes of layoutRoutes.ts.
 * Views load lazily per route. Every path stays a literal type (no helper or cast widens it), so a
 * wrong `to` fails the typecheck. Screens not built yet render the honest "not available yet" page.
 */
import { createRoute, redirect } from '@tanstack/react-router';
import { accountRoutes } from '../features/account/routes.ts';
import { activityRoutes } from '../features/activity/routes.ts';
import { accessTokenCardRoutes, publicCardRoutes } from '../features/cards/routes.ts';
import { homeRoutes } from '../features/home/routes.ts';
import { identityRoutes } from '../features/identity/routes.ts';
import { sessionRoutes } from '../features/session/routes.ts';
import { statementsRoutes } from '../features/statements/routes.ts';
import { accessTokenScreens, rootRoute } from './layoutRoutes.ts';
import { accessTokenNotBuiltYet, publicNotBuiltYet } from './notBuiltYetRoutes.ts';

const indexRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  beforeLoad: () => {
    throw redirect({ to: '/home', replace: true });
  },
});

const debuggerRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/debugger',
  beforeLoad: () => {
    throw redirect({ to: '/home', replace: true });
  },
});

export const routeTree = rootRoute.addChildren([
  indexRoute,
  debuggerRoute,
  ...sessionRoutes,
  ...identityRoutes,
  ...publicCardRoutes,
  ...publicNotBuiltYet,
  accessTokenScreens.addChildren([
    ...homeRoutes,
    ...activityRoutes,
    ...statementsRoutes,
    ...accessTokenCardRoutes,
    ...accountRoutes,
    ...accessTokenNotBuiltYet,
  ]),
]);
