/** The home screens (spec §2): /home, and /home1 and /home2 of the new-debit-details experiment. */
import { createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { accessTokenScreens, experimentFlags } from '../../app/layoutRoutes.ts';
import type { AppContext } from '../../app/context.ts';

/**
 * GET /home asked for while the first screen loads (earlyHome.ts). Its code loads on demand: not in the
 * bundle every first screen needs. Awaited, so a later visit drops an untaken call before the screen shows.
 * Failing to load it (the network gone) only loses the head start: the screen then asks for itself.
 */
const askForHomeEarly = (context: AppContext, preload: boolean): Promise<void> =>
  import('./earlyHome.ts').then(
    (early) => early.askForHomeEarly(context, preload),
    () => {},
  );

const homeView = lazyRouteComponent(() => import('./HomeView.tsx'), 'HomeView');

const homeRoute = createRoute({
  getParentRoute: () => accessTokenScreens,
  path: '/home',
  beforeLoad: async ({ context, preload }) => {
    const asked = askForHomeEarly(context, preload);
    if ((await experimentFlags(context)).showNewDebitDetails) throw redirect({ to: '/home2', replace: true });
    await asked;
  },
  component: homeView,
});
const home1Route = createRoute({
  getParentRoute: () => accessTokenScreens,
  path: '/home1',
  beforeLoad: ({ context, preload }) => askForHomeEarly(context, preload),
  component: homeView,
});
const home2Route = createRoute({
  getParentRoute: () => accessTokenScreens,
  path: '/home2',
  beforeLoad: ({ context, preload }) => askForHomeEarly(context, preload),
  component: lazyRouteComponent(() => import('./HomeView.tsx'), 'Home2View'),
});

export const homeRoutes = [homeRoute, home1Route, home2Route] as const;
