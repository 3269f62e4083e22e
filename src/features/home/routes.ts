/** The home screens (spec §2): /home, and /home1 and /home2 of the new-debit-details experiment. */
import { createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { accessTokenScreens, experimentFlags } from '../../app/layoutRoutes.ts';

const homeView = lazyRouteComponent(() => import('./HomeView.tsx'), 'HomeView');

const homeRoute = createRoute({
  getParentRoute: () => accessTokenScreens,
  path: '/home',
  beforeLoad: async ({ context }) => {
    if ((await experimentFlags(context)).showNewDebitDetails) throw redirect({ to: '/home2', replace: true });
  },
  component: homeView,
});
const home1Route = createRoute({ getParentRoute: () => accessTokenScreens, path: '/home1', component: homeView });
const home2Route = createRoute({
  getParentRoute: () => accessTokenScreens,
  path: '/home2',
  component: lazyRouteComponent(() => import('./HomeView.tsx'), 'Home2View'),
});

export const homeRoutes = [homeRoute, home1Route, home2Route] as const;
