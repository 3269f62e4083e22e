/**
 * Spec §2's screens whose features are not built yet: each renders the honest "not available yet"
 * page, with the guards and redirects the spec already fixes. A feature that builds one moves its
 * route into src/features/<feature>/routes.ts.
 */
import { createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { accessTokenScreens, experimentFlags, rootRoute } from './layoutRoutes.ts';

const notYetAvailable = lazyRouteComponent(() => import('../shared/screens/NotYetAvailableView.tsx'), 'NotYetAvailableView');

/** Screens from which activation may open without checking for a pending card again. */
const activationEntryPaths = new Set(['/home', '/home1', '/home2', '/manage-cards']);

const carrierDeepLinkRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/carrier-deep-link',
  beforeLoad: () => {
    throw redirect({ to: '/activate/{-$step}', params: { step: '1' }, search: { source: 'carrier' }, replace: true });
  },
});

const faqRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/faq',
  validateSearch: (search: Record<string, unknown>): { type?: string } => (typeof search.type === 'string' ? { type: search.type } : {}),
});
const faqIndexRoute = createRoute({ getParentRoute: () => faqRoute, path: '/', component: notYetAvailable });
const faqPageRoute = createRoute({ getParentRoute: () => faqRoute, path: '$', component: notYetAvailable });

const customerSupportRoute = createRoute({ getParentRoute: () => rootRoute, path: '/customer-support', component: notYetAvailable });
const previewRoute = createRoute({ getParentRoute: () => rootRoute, path: '/preview', component: notYetAvailable });
const changeAddressRoute = createRoute({ getParentRoute: () => rootRoute, path: '/change-address/{-$step}', component: notYetAvailable });
const changePhoneNumberRoute = createRoute({ getParentRoute: () => rootRoute, path: '/change-phone-number/{-$step}', component: notYetAvailable });
const replacementCardRoute = createRoute({ getParentRoute: () => rootRoute, path: '/replacement-card/{-$step}', component: notYetAvailable });

/** Public screens not built yet. */
export const publicNotBuiltYet = [
  carrierDeepLinkRoute,
  faqRoute.addChildren([faqIndexRoute, faqPageRoute]),
  customerSupportRoute,
  previewRoute,
  changeAddressRoute,
  changePhoneNumberRoute,
  replacementCardRoute,
] as const;

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
    if (cause !== 'preload' && !(from && activationEntryPaths.has(from))) {
      const home = await context.api.getHome();
      if (!home.pendingCard) throw redirect({ to: '/home', replace: true });
    }
  },
  component: notYetAvailable,
});

const orderCardRoute = createRoute({
  getParentRoute: () => accessTokenScreens,
  path: '/order-card/{-$step}',
  beforeLoad: async ({ context, cause, params }) => {
    if (cause !== 'preload' && (params.step === undefined || params.step === '1')) {
      const home = await context.api.getHome();
      if (home.hasFundedAnyKind) throw redirect({ to: '/order-card/{-$step}', params: { step: '2' }, replace: true });
    }
  },
  component: notYetAvailable,
});

const directDepositRoute = createRoute({ getParentRoute: () => accessTokenScreens, path: '/direct-deposit' });
const directDepositIndexRoute = createRoute({ getParentRoute: () => directDepositRoute, path: '/', component: notYetAvailable });
const directDepositFormRoute = createRoute({
  getParentRoute: () => directDepositRoute,
  path: 'form/{-$step}',
  beforeLoad: ({ params }) => {
    if (!params.step) throw redirect({ to: '/direct-deposit/form/{-$step}', params: { step: '1' }, replace: true });
  },
  component: notYetAvailable,
});
const directDepositWhereRoute = createRoute({ getParentRoute: () => directDepositRoute, path: 'where', component: notYetAvailable });

const manageCardRoute = createRoute({
  getParentRoute: () => accessTokenScreens,
  path: '/manage-card',
  beforeLoad: async ({ context }) => {
    if ((await experimentFlags(context)).virtualCards) throw redirect({ to: '/manage-cards', replace: true });
  },
  component: notYetAvailable,
});

const manageCardsRoute = createRoute({ getParentRoute: () => accessTokenScreens, path: '/manage-cards', component: notYetAvailable });
const resetPinRoute = createRoute({ getParentRoute: () => accessTokenScreens, path: '/reset-pin/{-$step}', component: notYetAvailable });
const taxRoute = createRoute({ getParentRoute: () => accessTokenScreens, path: '/tax', component: notYetAvailable });
const addMoneyRoute = createRoute({ getParentRoute: () => accessTokenScreens, path: '/add-money', component: notYetAvailable });
const loadCashRoute = createRoute({ getParentRoute: () => accessTokenScreens, path: '/load-cash', component: notYetAvailable });
const cashLoadMapRoute = createRoute({ getParentRoute: () => accessTokenScreens, path: '/cash-load-map', component: notYetAvailable });
const transferMoneyRoute = createRoute({ getParentRoute: () => accessTokenScreens, path: '/transfer-money', component: notYetAvailable });
const managePrimeRoute = createRoute({ getParentRoute: () => accessTokenScreens, path: '/manage-prime', component: notYetAvailable });
const manageSnapbackRoute = createRoute({ getParentRoute: () => accessTokenScreens, path: '/manage-snapback', component: notYetAvailable });

/** Screens not built yet that need an access token (under the layout route's guard). */
export const accessTokenNotBuiltYet = [
  activateRoute,
  orderCardRoute,
  directDepositRoute.addChildren([directDepositIndexRoute, directDepositFormRoute, directDepositWhereRoute]),
  manageCardRoute,
  manageCardsRoute,
  resetPinRoute,
  taxRoute,
  addMoneyRoute,
  loadCashRoute,
  cashLoadMapRoute,
  transferMoneyRoute,
  managePrimeRoute,
  manageSnapbackRoute,
] as const;
