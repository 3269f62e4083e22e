/**
 * Getting a physical card (spec §2): order one (/order-card/:step?), activate it (/activate/:step?, and
 * the carrier's deep link), replace a damaged one (/replacement-card/:step?). Views load lazily; this
 * module stays tiny (it is in every screen's first load).
 */
import { createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { accessTokenScreens, rootRoute } from '../../app/layoutRoutes.ts';

/** The three screens are one lazy module (cardOrderScreens.ts): the entry lists its files once. */
const screens = () => import('./cardOrderScreens.ts');

/** Screens from which activation may open without checking for a pending card again. */
const activationEntryPaths = new Set(['/home', '/home1', '/home2', '/manage-cards']);

/** The carrier's link in the card's mailer: activation, step 1, with source=carrier. */
const carrierDeepLinkRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/carrier-deep-link',
  beforeLoad: () => {
    throw redirect({ to: '/activate/{-$step}', params: { step: '1' }, search: { source: 'carrier' }, replace: true });
  },
});

/** Spec §2: loads the user first (the view's chart does, before anything else) and passes its query: which card. */
const replacementCardRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/replacement-card/{-$step}',
  validateSearch: (search: Record<string, unknown>): { cardId?: string } => (typeof search.cardId === 'string' ? { cardId: search.cardId } : {}),
  component: lazyRouteComponent(screens, 'ReplacementView'),
});

/** Spec §2: props step and isReplacement; from outside home and the card screens, only when a card awaits activation. */
const activateRoute = createRoute({
  getParentRoute: () => accessTokenScreens,
  path: '/activate/{-$step}',
  validateSearch: (search: Record<string, unknown>): { isReplacement?: 'true'; source?: string } => ({
    ...(search.isReplacement === 'true' || search.isReplacement === true ? { isReplacement: 'true' } : {}),
    ...(typeof search.source === 'string' ? { source: search.source } : {}),
  }),
  beforeLoad: async ({ context, cause }) => {
    // Arriving from outside the home and card screens: only continue when a card awaits activation.
    const from = context.previousLocation()?.pathname;
    if (cause !== 'preload' && !(from && (activationEntryPaths.has(from) || from.startsWith('/activate')))) {
      const home = await context.api.getHome();
      if (!home.pendingCard) throw redirect({ to: '/home', replace: true });
    }
  },
  component: lazyRouteComponent(screens, 'ActivationView'),
});

/** Spec §2: an account that already funded any kind of card skips step 1. */
const orderCardRoute = createRoute({
  getParentRoute: () => accessTokenScreens,
  path: '/order-card/{-$step}',
  beforeLoad: async ({ context, cause, params }) => {
    if (cause !== 'preload' && (params.step === undefined || params.step === '1')) {
      const home = await context.api.getHome();
      if (home.hasFundedAnyKind) throw redirect({ to: '/order-card/{-$step}', params: { step: '2' }, replace: true });
    }
  },
  component: lazyRouteComponent(screens, 'OrderCardView'),
});

export const publicCardOrderRoutes = [carrierDeepLinkRoute, replacementCardRoute] as const;
export const accessTokenCardOrderRoutes = [activateRoute, orderCardRoute] as const;
