/**
 * The card screens (spec §2): order a physical card (/order-card/:step?), activate it (/activate/:step?,
 * and the carrier's deep link), replace a damaged one (/replacement-card/:step?), the cards
 * (/manage-card, which is /manage-cards when the virtual-cards experiment is on; query initialSlide:
 * the card it opens on, from 0) and a card's PIN (/reset-pin/:step?; query returnTo: where a PIN set
 * returns, only ever a path of this app; cardId and pin say which card and which PIN).
 * All views are one lazy module (cardScreens.ts): the app's entry lists its files once, not once per
 * route (docs/performance.md). This module stays tiny: it is in every screen's first load.
 */
import { createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import type { PinKind } from '../../../contract/cards/types.ts';
import { safeRedirect } from '../../app/guards.ts';
import { accessTokenScreens, experimentFlags, rootRoute } from '../../app/layoutRoutes.ts';

const screens = () => import('./cardScreens.ts');

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

/**
 * Spec §2: loads the user first (the view's chart does, before anything else) and passes its query:
 * which card. Loading the user needs an access token, so the route has the access-token guard: a
 * locked session is asked for its unlock code and a signed-out visitor for a sign-in, each brought
 * back here after (without it, the call failed with no way on, and a locked session was signed out).
 */
const replacementCardRoute = createRoute({
  getParentRoute: () => accessTokenScreens,
  path: '/replacement-card/{-$step}',
  validateSearch: (search: Record<string, unknown>): { cardId?: string } => ({ cardId: typeof search.cardId === 'string' ? search.cardId : undefined }),
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
      const home = await context.api.getHome({ suppressErrorModal: true });
      if (!home.pendingCard) throw redirect({ to: '/home', replace: true });
    }
  },
  component: lazyRouteComponent(screens, 'ActivationView'),
});

/**
 * Spec §2: an account that already funded any kind of card skips step 1. The chart decides it from the
 * home data it loads (machines/cards/orderCard.ts) and the URL follows (useStepParam): a guard reading
 * home data as well cost a second GET /home on the way in.
 */
const orderCardRoute = createRoute({
  getParentRoute: () => accessTokenScreens,
  path: '/order-card/{-$step}',
  component: lazyRouteComponent(screens, 'OrderCardView'),
});


const manageCardRoute = createRoute({
  getParentRoute: () => accessTokenScreens,
  path: '/manage-card',
  beforeLoad: async ({ context }) => {
    if ((await experimentFlags(context)).virtualCards) throw redirect({ to: '/manage-cards', replace: true });
  },
  component: lazyRouteComponent(screens, 'ManageCardScreen'),
});

const manageCardsRoute = createRoute({
  getParentRoute: () => accessTokenScreens,
  path: '/manage-cards',
  // Every key is given (undefined when refused): the router lays the validated search over the raw one.
  validateSearch: ({ initialSlide }: Record<string, unknown>): { initialSlide?: number } => {
    const slide = Number(initialSlide);
    return { initialSlide: Number.isInteger(slide) && slide >= 0 ? slide : undefined };
  },
  component: lazyRouteComponent(screens, 'ManageCardsScreen'),
});

export type ResetPinSearch = { returnTo?: string; cardId?: string; pin?: PinKind };

const resetPinRoute = createRoute({
  getParentRoute: () => accessTokenScreens,
  path: '/reset-pin/{-$step}',
  validateSearch: ({ returnTo, cardId, pin }: Record<string, unknown>): ResetPinSearch => ({
    returnTo: safeRedirect(returnTo),
    cardId: typeof cardId === 'string' ? cardId : undefined,
    pin: pin === 'atm' ? pin : undefined,
  }),
  // Which card's PIN is set is chosen on the cards screen.
  beforeLoad: ({ search }) => {
    if (!search.cardId) throw redirect({ to: '/manage-cards', replace: true });
  },
  component: lazyRouteComponent(screens, 'ResetPinView'),
});

/** Public card screens (their views ask for what they need). */
export const publicCardRoutes = [carrierDeepLinkRoute] as const;
/** Card screens under the access-token guard. */
export const accessTokenCardRoutes = [activateRoute, orderCardRoute, replacementCardRoute, manageCardRoute, manageCardsRoute, resetPinRoute] as const;
