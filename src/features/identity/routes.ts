/** Registration's screen (spec §2, §4). */
import { createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { registrationGuard } from '../../app/guards.ts';
import { rootRoute } from '../../app/layoutRoutes.ts';

/**
 * Registration is offered only inside the companion app (spec §2). Elsewhere the router's history
 * blocker (src/app/router.tsx) cancels the navigation, so the user stays where they are; this guard covers
 * what the blocker cannot see: a first load (typed or reloaded address), where there is nowhere to stay,
 * goes home (whose own guard then decides), and any later arrival returns to the screen the user was on.
 */
export const registerRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/register/{-$step}',
  // The router parses JSON in the query, so `profile` arrives as an object; kept as given, so it stays
  // in the URL from step to step. The view reads its raw text from the URL (it is sent as typed).
  validateSearch: (search: Record<string, unknown>): { profile?: unknown } => (search.profile === undefined ? {} : { profile: search.profile }),
  beforeLoad: ({ context }) => {
    if (registrationGuard(context.embedded, context)) return;
    const stayAt = context.previousLocation();
    throw stayAt ? redirect({ href: stayAt.href, replace: true }) : redirect({ to: '/home', replace: true });
  },
  component: lazyRouteComponent(() => import('./RegisterView.tsx'), 'RegisterView'),
});

export const identityRoutes = [registerRoute] as const;
