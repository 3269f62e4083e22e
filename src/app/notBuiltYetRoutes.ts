/**
 * Spec §2's screens whose features are not built yet: each renders the honest "not available yet"
 * page, with the guards and redirects the spec already fixes. A feature that builds one moves its
 * route into src/features/<feature>/routes.ts.
 */
import { createRoute, lazyRouteComponent, redirect, type AnyRoute } from '@tanstack/react-router';
import { accessTokenScreens, rootRoute } from './layoutRoutes.ts';

const notYetAvailable = lazyRouteComponent(() => import('../shared/screens/NotYetAvailableView.tsx'), 'NotYetAvailableView');

/** The "not available yet" page at `path` under `parent`. */
const notBuiltYet = <TParent extends AnyRoute, TPath extends string>(parent: TParent, path: TPath) =>
  createRoute({ getParentRoute: () => parent, path, component: notYetAvailable });

const faqRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/faq',
  validateSearch: (search: Record<string, unknown>): { type?: string } => ({ type: typeof search.type === 'string' ? search.type : undefined }),
});
const faqIndexRoute = notBuiltYet(faqRoute, '/');
const faqPageRoute = notBuiltYet(faqRoute, '$');

const customerSupportRoute = notBuiltYet(rootRoute, '/customer-support');
const previewRoute = notBuiltYet(rootRoute, '/preview');
const changeAddressRoute = notBuiltYet(rootRoute, '/change-address/{-$step}');
const changePhoneNumberRoute = notBuiltYet(rootRoute, '/change-phone-number/{-$step}');

/** Public screens not built yet. */
export const publicNotBuiltYet = [
  faqRoute.addChildren([faqIndexRoute, faqPageRoute]),
  customerSupportRoute,
  previewRoute,
  changeAddressRoute,
  changePhoneNumberRoute,
] as const;

const directDepositRoute = createRoute({ getParentRoute: () => accessTokenScreens, path: '/direct-deposit' });
const directDepositIndexRoute = notBuiltYet(directDepositRoute, '/');
const directDepositFormRoute = createRoute({
  getParentRoute: () => directDepositRoute,
  path: 'form/{-$step}',
  beforeLoad: ({ params }) => {
    if (!params.step) throw redirect({ to: '/direct-deposit/form/{-$step}', params: { step: '1' }, replace: true });
  },
  component: notYetAvailable,
});
const directDepositWhereRoute = notBuiltYet(directDepositRoute, 'where');

const taxRoute = notBuiltYet(accessTokenScreens, '/tax');
const addMoneyRoute = notBuiltYet(accessTokenScreens, '/add-money');
const loadCashRoute = notBuiltYet(accessTokenScreens, '/load-cash');
const cashLoadMapRoute = notBuiltYet(accessTokenScreens, '/cash-load-map');
const transferMoneyRoute = notBuiltYet(accessTokenScreens, '/transfer-money');
const managePrimeRoute = notBuiltYet(accessTokenScreens, '/manage-prime');
const manageSnapbackRoute = notBuiltYet(accessTokenScreens, '/manage-snapback');

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
