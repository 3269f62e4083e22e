/** The router: route table, context with the root actors, lazy-view spinner, scroll and analytics. */
import { createRouter, type RouterHistory } from '@tanstack/react-router';
import { Spinner } from '../components/Spinner.tsx';
import type { AppContext } from './context.ts';
import { routeTree } from './routes.tsx';

/** Lazy views show the spinner only when they take longer than this. */
export const lazyViewSpinnerMs = 100;

export function createAppRouter(context: AppContext, history?: RouterHistory) {
  const router = createRouter({
    routeTree,
    context,
    history,
    defaultPendingComponent: Spinner,
    defaultPendingMs: lazyViewSpinnerMs,
    defaultPendingMinMs: 200,
    defaultPreload: false,
    // The window scrolls to top on navigation, except on the transactions list (spec §2).
    scrollRestoration: ({ location }) => location.pathname !== '/transactions',
  });

  router.subscribe('onResolved', ({ fromLocation, toLocation }) => {
    const leaf = router.state.matches.at(-1);
    if (!leaf || toLocation.pathname === '/') return;
    // The auth modal showing or leaving /unlock or /signin over a screen is not a visit to it.
    if (toLocation.maskedLocation || (fromLocation?.maskedLocation && fromLocation.href === toLocation.href)) return;
    const previous = fromLocation ? router.matchRoutes(fromLocation).at(-1)?.routeId : undefined;
    context.analytics.track('route.visit', {
      name: leaf.routeId,
      params: leaf.params,
      query: toLocation.search,
      previousRouteName: previous ?? null,
    });
  });
  return router;
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}
