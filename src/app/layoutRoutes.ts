/**
 * The routes every feature's subtree hangs from: the root (the app shell) and the pathless layout
 * route of the screens that need an access token. This module imports no feature, so feature route
 * modules can import it and src/app/routes.tsx can assemble them without an import cycle.
 * Guards read the session snapshot and redirect; they never send events (they also run on preload).
 */
import { createRootRouteWithContext, createRoute, redirect } from '@tanstack/react-router';
import { waitFor } from 'xstate';
import type { ExperimentFlags } from '../../contract/experiments/types.ts';
import { AppShell } from './AppShell.tsx';
import type { AppContext } from './context.ts';
import { accessTokenGuard, safeRedirect, type AuthRedirect } from './guards.ts';

export function tokensOf(context: AppContext) {
  const { accessToken, refreshToken } = context.session.getSnapshot().context;
  return { accessToken, refreshToken };
}

/** A guard's decision as a redirect; sign-in opens at its first step, whatever step the user was on. */
export function toAuthScreen({ to, search }: AuthRedirect) {
  return to === '/unlock'
    ? redirect({ to: '/unlock', search, replace: true })
    : redirect({ to: '/signin/{-$step}', params: { step: undefined }, search, replace: true });
}

/**
 * The route to return to after sign-in or unlock, kept only when it is one of the app's own. Like every
 * route's search check, it returns each key it knows, undefined when refused: TanStack lays the checked
 * search over the address's own, so a key left out would reach the screen unchecked.
 */
export const rememberedSearch = (search: Record<string, unknown>): { redirect?: string } => ({ redirect: safeRedirect(search.redirect) });

/** Routes that depend on an experiment wait for the config (it is fetched at start). */
export async function experimentFlags(context: AppContext): Promise<ExperimentFlags> {
  const settled = await waitFor(context.experiments, (snapshot) => snapshot.hasTag('settled'), { timeout: Infinity });
  return settled.context.flags;
}

export const rootRoute = createRootRouteWithContext<AppContext>()({ component: AppShell });

/**
 * Every screen that needs an access token (spec §2) sits under this pathless layout route, whose guard
 * runs before theirs: no refresh token → sign in; no access token → unlock; the route is remembered.
 * /home and /manage-card check it before their experiment redirect, so the route remembered is the one
 * asked for; after sign-in that route redirects again.
 */
export const accessTokenScreens = createRoute({
  getParentRoute: () => rootRoute,
  id: '_accessToken',
  beforeLoad: ({ context, location }) => {
    const session = context.session.getSnapshot();
    // The auth modal is asking for authentication over this very screen, which stays as it is.
    if (session.matches({ authModal: 'open' }) && session.context.interruption?.location === location.href) return;
    const decision = accessTokenGuard(tokensOf(context), location.href, context);
    if (decision) throw toAuthScreen(decision);
  },
});
