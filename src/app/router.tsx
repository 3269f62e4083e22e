/** The router: route table, context with the root actors, lazy-view spinner, not-found and error screens, scroll and analytics. */
import { createRouter, type RouterHistory } from '@tanstack/react-router';
import { Spinner } from '../shared/components/Spinner.tsx';
import { ErrorView } from '../shared/screens/ErrorView.tsx';
import { NotFoundView } from '../shared/screens/NotFoundView.tsx';
import type { AppContext } from './context.ts';
import { registrationGuard } from './guards.ts';
import { registerRoute } from '../features/identity/routes.ts';
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
    // Any address outside the route table, at any depth, inside the app's frame.
    defaultNotFoundComponent: NotFoundView,
    // A screen that throws, or whose code fails to download (twice for a script: TanStack reloads the
    // page once; a stylesheet at once):
    // the app's own screen in the reader's language, not the library's English one. Loaded with the
    // entry, as it must show when the network is what failed.
    defaultErrorComponent: ErrorView,
    defaultOnCatch: (error: unknown) =>
      context.errors.error('screen failed', error instanceof Error ? { name: error.name, message: error.message } : { message: String(error) }),
    // The window scrolls to top on navigation (spec §2); going back restores where the screen was, so the
    // transactions list is not reset when a transaction's detail is left (its rows stay loaded meanwhile).
    scrollRestoration: true,
  });

  // Outside the companion app a navigation to /register is cancelled (spec §2): the address never
  // changes and the user stays on their screen. A first load has nothing to cancel: the route guards it.
  router.history.block({
    blockerFn: ({ nextLocation }) =>
      !registrationGuard(context.embedded, context) && router.getMatchedRoutes(nextLocation.pathname)[2]?.id === registerRoute.id,
    enableBeforeUnload: false,
  });

  router.subscribe('onResolved', ({ fromLocation, toLocation }) => {
    const name = routeName(router.state.matches);
    if (!name || toLocation.pathname === '/') return;
    // The auth modal showing or leaving /unlock or /signin over a screen is not a visit to it.
    if (toLocation.maskedLocation || (fromLocation?.maskedLocation && fromLocation.href === toLocation.href)) return;
    context.analytics.track('route.visit', {
      name,
      params: router.state.matches.at(-1)?.params,
      query: toLocation.search,
      previousRouteName: (fromLocation && routeName(router.matchRoutes(fromLocation))) ?? null,
    });
  });
  return router;
}

/**
 * A route's name in analytics is its path pattern (the pathless layout around the account screens is
 * no part of it). An address outside the route table has none (the router marks its not-found match).
 */
function routeName(matches: readonly { fullPath: string; _notFound?: boolean }[]): string | undefined {
  if (matches.some((match) => match._notFound)) return undefined;
  return matches.at(-1)?.fullPath;
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}

declare module '@tanstack/history' {
  interface HistoryState {
    /**
     * A transaction's detail opened from the activity list, in this page load (src/shared/activity/ActivityRow.tsx
     * `thisPageLoad`): its "Back to activity" goes back in history.
     */
    fromActivityList?: string;
  }
}
