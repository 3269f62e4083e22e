/**
 * Spec §2's screens whose features are not built yet: each renders the honest "not available yet"
 * page, with the guards and redirects the spec already fixes. A feature that builds one moves its
 * route into src/features/<feature>/routes.ts.
 */
import { createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { accessTokenScreens, rootRoute } from './layoutRoutes.ts';

const notYetAvailable = lazyRouteComponent(() => import('../shared/screens/NotYetAvailableView.tsx'), 'NotYetAvailableView');

const faqRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/faq',
  validateSearch: (search: Record<string, unknown>): { type?: string } => ({ type: typeof search.type === 'string' ? search.type : undefined }),
});
const faqIndexRoute = createRoute({ getParentRoute: () => faqRoute, path: '/', component: notYetAvailable });
const faqPageRoute = createRoute({ getParentRoute: () => faqRoute, path: '$', component: notYetAvailable });

const customerSupportRoute = createRoute({ getParentRoute: () => rootRoute, path: '/customer-support', component: notYetAvailable });
const previewRoute = createRoute({ getParentRoute: () => rootRoute, path: '/preview', component: notYetAvailable });
const changeAddressRoute = createRoute({ getParentRoute: () => rootRoute, path: '/change-address/{-$step}', component: notYetAvailable });
const changePhoneNumberRoute = createRoute({ getParentRoute: () => rootRoute, path: '/change-phone-number/{-$step}', component: notYetAvailable });

/** Public screens not built yet. */
export const publicNotBuiltYet = [
  faqRoute.addChildren([faqIndexRoute, faqPageRoute]),
  customerSupportRoute,
  previewRoute,
  changeAddressRoute,
  changePhoneNumberRoute,
] as const;

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

const taxRoute = createRoute({ getParentRoute: () => accessTokenScreens, path: '/tax', component: notYetAvailable });
const addMoneyRoute = createRoute({ getParentRoute: () => accessTokenScreens, path: '/add-money', component: notYetAvailable });
const loadCashRoute = createRoute({ getParentRoute: () => accessTokenScreens, path: '/load-cash', component: notYetAvailable });
const cashLoadMapRoute = createRoute({ getParentRoute: () => accessTokenScreens, path: '/cash-load-map', component: notYetAvailable });
const transferMoneyRoute = createRoute({ getParentRoute: () => accessTokenScreens, path: '/transfer-money', component: notYetAvailable });
const managePrimeRoute = createRoute({ getParentRoute: () => accessTokenScreens, path: '/manage-prime', component: notYetAvailable });
const manageSnapbackRoute = createRoute({ getParentRoute: () => accessTokenScreens, path: '/manage-snapback', component: notYetAvailable });

/** Screens not built yet that need an access token (under the layout route's guard). */
export const accessTokenNotBuiltYet = [
  directDepositRoute.addChildren([directDepositIndexRoute, directDepositFormRoute, directDepositWhereRoute]),
  taxRoute,
  addMoneyRoute,
  loadCashRoute,
  cashLoadMapRoute,
  transferMoneyRoute,
  managePrimeRoute,
  manageSnapbackRoute,
] as const;
