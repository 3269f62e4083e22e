/**
 * The whole route table of spec §2. Views load lazily per route. Guards read the session
 * snapshot and redirect; they never send events (they also run on preload).
 * Screens not built yet render the honest "not available yet" page.
 */
import {
  createRootRouteWithContext,
  createRoute,
  lazyRouteComponent,
  redirect,
  type AnyRoute,
} from '@tanstack/react-router';
import { AppShell } from '../components/AppShell.tsx';
import { waitFor } from 'xstate';
import type { ExperimentFlags } from '../../contract/experiments/types.ts';
import type { AppContext } from './context.ts';
import { accessTokenGuard, refreshTokenGuard, registrationGuard, safeRedirect } from './guards.ts';

const notYetAvailable = lazyRouteComponent(() => import('../flows/notYetAvailable/NotYetAvailableView.tsx'), 'NotYetAvailableView');
const homeView = lazyRouteComponent(() => import('../flows/home/HomeView.tsx'), 'HomeView');
const home2View = lazyRouteComponent(() => import('../flows/home/HomeView.tsx'), 'Home2View');

type GuardArgs = { context: AppContext; location: { href: string } };

/** Screens from which activation may open without checking for a pending card again. */
const activationEntryPaths = new Set(['/home', '/home1', '/home2', '/manage-cards']);

/** Routes that depend on an experiment wait for the config (it is fetched at start). */
async function experimentFlags(context: AppContext): Promise<ExperimentFlags> {
  const settled = await waitFor(context.experiments, (snapshot) => snapshot.hasTag('settled'), { timeout: Infinity });
  return settled.context.flags;
}

function tokensOf(context: AppContext) {
  const { accessToken, refreshToken } = context.session.getSnapshot().context;
  return { accessToken, refreshToken };
}

function needsAccessToken({ context, location }: GuardArgs): void {
  const session = context.session.getSnapshot();
  // The auth modal is asking for authentication over this very screen, which stays as it is.
  if (session.matches({ authModal: 'open' }) && session.context.interruption?.location === location.href) return;
  const decision = accessTokenGuard(tokensOf(context), location.href, context);
  if (decision) throw redirect({ to: decision.to, search: decision.search, replace: true });
}

function needsRefreshToken({ context, location }: GuardArgs & { location: { search: unknown } }): void {
  const remembered = (location.search as { redirect?: unknown }).redirect;
  const decision = refreshTokenGuard(tokensOf(context), safeRedirect(remembered), context);
  if (decision) throw redirect({ to: decision.to, search: decision.search, replace: true });
}

const rememberedSearch = (search: Record<string, unknown>): { redirect?: string } => {
  const redirectTo = safeRedirect(search.redirect);
  return redirectTo ? { redirect: redirectTo } : {};
};

export const rootRoute = createRootRouteWithContext<AppContext>()({ component: AppShell });

const page = (path: string, options: Partial<Parameters<typeof createRoute>[0]> = {}) =>
  createRoute({ getParentRoute: () => rootRoute, path, component: notYetAvailable, ...options } as Parameters<
    typeof createRoute
  >[0]);

const indexRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  beforeLoad: () => {
    throw redirect({ to: '/home', replace: true });
  },
});

const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/signin/{-$step}',
  validateSearch: rememberedSearch,
  component: lazyRouteComponent(() => import('../flows/signIn/SignInView.tsx'), 'SignInView'),
});

const unlockRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/unlock',
  validateSearch: rememberedSearch,
  beforeLoad: needsRefreshToken,
  component: lazyRouteComponent(() => import('../flows/unlock/UnlockView.tsx'), 'UnlockView'),
});

const homeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/home',
  beforeLoad: async (args) => {
    if ((await experimentFlags(args.context)).showNewDebitDetails) throw redirect({ to: '/home2', replace: true });
    needsAccessToken(args);
  },
  component: homeView,
});

const home2Route = createRoute({ getParentRoute: () => rootRoute, path: '/home2', beforeLoad: needsAccessToken, component: home2View });

const home1Route = createRoute({ getParentRoute: () => rootRoute, path: '/home1', beforeLoad: needsAccessToken, component: homeView });

const registerRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/register/{-$step}',
  // The router parses JSON in the query, so `profile` arrives as an object; kept as given, so it stays
  // in the URL from step to step. The view reads its raw text from the URL (it is sent as typed).
  validateSearch: (search: Record<string, unknown>): { profile?: unknown } => (search.profile === undefined ? {} : { profile: search.profile }),
  beforeLoad: ({ context }) => {
    // Outside the companion app registration is not offered: the navigation is cancelled.
    if (!registrationGuard(context.embedded, context)) throw redirect({ to: '/signin', replace: true });
  },
  component: lazyRouteComponent(() => import('../flows/register/RegisterView.tsx'), 'RegisterView'),
});

const activateRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/activate/{-$step}',
  validateSearch: (search: Record<string, unknown>) => ({
    isReplacement: search.isReplacement === 'true' || search.isReplacement === true ? 'true' : undefined,
    source: typeof search.source === 'string' ? search.source : undefined,
  }),
  beforeLoad: async (args) => {
    needsAccessToken(args);
    // Arriving from outside the home and card screens: only continue when a card awaits activation.
    const from = args.context.previousPathname();
    if (args.cause !== 'preload' && !(from && activationEntryPaths.has(from))) {
      const home = await args.context.api.getHome();
      if (!home.pendingCard) throw redirect({ to: '/home', replace: true });
    }
  },
  component: notYetAvailable,
});

const orderCardRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/order-card/{-$step}',
  beforeLoad: async (args) => {
    needsAccessToken(args);
    const step = (args.params as { step?: string }).step;
    if (args.cause !== 'preload' && (step === undefined || step === '1')) {
      const home = await args.context.api.getHome();
      if (home.hasFundedAnyKind) {
        throw redirect({ to: '/order-card/{-$step}', params: { step: '2' }, replace: true });
      }
    }
  },
  component: notYetAvailable,
});

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
  validateSearch: (search: Record<string, unknown>) => ({ type: typeof search.type === 'string' ? search.type : undefined }),
});
const faqIndexRoute = createRoute({ getParentRoute: () => faqRoute, path: '/', component: notYetAvailable });
const faqPageRoute = createRoute({ getParentRoute: () => faqRoute, path: '$', component: notYetAvailable });

const directDepositRoute = createRoute({ getParentRoute: () => rootRoute, path: '/direct-deposit', beforeLoad: needsAccessToken });
const directDepositIndexRoute = createRoute({ getParentRoute: () => directDepositRoute, path: '/', component: notYetAvailable });
const directDepositFormRoute = createRoute({
  getParentRoute: () => directDepositRoute,
  path: 'form/{-$step}',
  beforeLoad: ({ params }) => {
    if (!(params as { step?: string }).step) {
      throw redirect({ to: '/direct-deposit/form/{-$step}', params: { step: '1' }, replace: true });
    }
  },
  component: notYetAvailable,
});
const directDepositWhereRoute = createRoute({ getParentRoute: () => directDepositRoute, path: 'where', component: notYetAvailable });

const transactionsRoute = createRoute({ getParentRoute: () => rootRoute, path: '/transactions', beforeLoad: needsAccessToken });
const transactionsListRoute = createRoute({ getParentRoute: () => transactionsRoute, path: '/', component: notYetAvailable });
const transactionDetailRoute = createRoute({ getParentRoute: () => transactionsRoute, path: 'detail', component: notYetAvailable });

const debuggerRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/debugger',
  beforeLoad: () => {
    throw redirect({ to: '/home', replace: true });
  },
});

const manageCardRoute = page('/manage-card', {
  beforeLoad: async (args: GuardArgs) => {
    if ((await experimentFlags(args.context)).virtualCards) throw redirect({ to: '/manage-cards', replace: true });
    needsAccessToken(args);
  },
});

const manageAccountRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/manage-account',
  beforeLoad: needsAccessToken,
  component: lazyRouteComponent(() => import('../flows/manageAccount/ManageAccountView.tsx'), 'ManageAccountView'),
});

const accessTokenPages = [
  '/manage-cards',
  '/reset-pin/{-$step}',
  '/statements',
  '/tax',
  '/add-money',
  '/load-cash',
  '/cash-load-map',
  '/transfer-money',
  '/manage-prime',
  '/manage-snapback',
].map((path) => page(path, { beforeLoad: needsAccessToken }));

const openPages = [
  '/customer-support',
  '/preview',
  '/change-address/{-$step}',
  '/change-phone-number/{-$step}',
  '/replacement-card/{-$step}',
].map((path) => page(path));

const resetUnlockCodeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/reset-unlock-code/{-$step}',
  validateSearch: rememberedSearch,
  beforeLoad: needsRefreshToken,
  component: lazyRouteComponent(() => import('../flows/resetUnlockCode/ResetUnlockCodeView.tsx'), 'ResetUnlockCodeView'),
});

/** Public (spec §2); `then=signin` when sign-in sent the user here, so the flow ends there. */
const resetPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/reset-password/{-$step}',
  validateSearch: (search: Record<string, unknown>): { then?: 'signin' } => (search.then === 'signin' ? { then: 'signin' } : {}),
  component: lazyRouteComponent(() => import('../flows/resetPassword/ResetPasswordView.tsx'), 'ResetPasswordView'),
});

export const routeTree = rootRoute.addChildren([
  indexRoute,
  signInRoute,
  unlockRoute,
  homeRoute,
  home1Route,
  home2Route,
  registerRoute,
  activateRoute,
  orderCardRoute,
  carrierDeepLinkRoute,
  faqRoute.addChildren([faqIndexRoute, faqPageRoute]),
  directDepositRoute.addChildren([directDepositIndexRoute, directDepositFormRoute, directDepositWhereRoute]),
  transactionsRoute.addChildren([transactionsListRoute, transactionDetailRoute]),
  debuggerRoute,
  manageCardRoute,
  manageAccountRoute,
  resetUnlockCodeRoute,
  resetPasswordRoute,
  ...(accessTokenPages as AnyRoute[]),
  ...(openPages as AnyRoute[]),
]);
