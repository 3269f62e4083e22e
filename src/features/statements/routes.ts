/** The statements screen (spec §2 /statements), under the access-token guard. */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { accessTokenScreens } from '../../app/layoutRoutes.ts';

const statementsRoute = createRoute({
  getParentRoute: () => accessTokenScreens,
  path: '/statements',
  component: lazyRouteComponent(() => import('./StatementsView.tsx'), 'StatementsView'),
});

export const statementsRoutes = [statementsRoute] as const;
