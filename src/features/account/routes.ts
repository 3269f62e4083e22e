/** The account's screens (spec §2). */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { accessTokenScreens } from '../../app/layoutRoutes.ts';

const manageAccountRoute = createRoute({
  getParentRoute: () => accessTokenScreens,
  path: '/manage-account',
  component: lazyRouteComponent(() => import('./ManageAccountView.tsx'), 'ManageAccountView'),
});

export const accountRoutes = [manageAccountRoute] as const;
