/**
 * The whole route table of spec §2. Views load lazily per route. Guards read the session
 * snapshot and redirect; they never send events (they also run on preload).
 * Every path stays a literal type (no helper or cast widens it), so a wrong `to` fails the typecheck.
 * Screens not built yet render the honest "not available yet" page.
 */
import { createRootRouteWithContext, createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { AppShell } from '../components/AppShell.tsx';
import { waitFor } from 'xstate';
import type { ExperimentFlags } from '../../contract/experiments/types.ts';
import type { AppContext } from './context.ts';
import { accessTokenGuard, refreshTokenGuard, registrationGuard, safeRedirect, type AuthRedirect } from './guards.ts';

const notYetAvailable = lazyRouteComponent(() => import('../flows/notYetAvailable/NotYetAvailableView.tsx'), 'NotYetAvailableView');
const homeView = lazyRouteComponent(() => import('../flows/home/HomeView.tsx'), 'HomeView');
const home2View = lazyRouteComponent(() => import('../flows/home/HomeView.tsx'), 'Home2View');

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

/** A guard's decision as a redirect; sign-in opens at its first step, whatever step the user was on. */
function toAuthScreen({ to, search }: AuthRedirect) {
  return to === '/unlock'
    ? redirect({ to: '/unlock', search, replace: true })
    : redirect({ to: '/signin/{-$step}', params: { step: undefined }, search, replace: true });
}

const rememberedSearch = (search: Record<string, unknown>): { redirect?: string } => {
  const redirectTo = safeRedirect(search.redirect);
  return redirectTo ? { redirect: redirectTo } : {};
};

export const rootRoute = createRootRouteWithContext<AppContext>()({ component: AppShell });

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

/** Unlock and reset-unlock-code need a refresh token, else sign in (keeping the remembered route). */
function needsRefreshToken({ context, search }: { context: AppContext; search: { redirect?: string } }): void {
  const decision = refreshTokenGuard(tokensOf(context), search.redirect, context);
  if (decision) throw toAuthScreen(decision);
}

const unlockRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/unlock',
  validateSearch: rememberedSearch,
  beforeLoad: needsRefreshToken,
  component: lazyRouteComponent(() => import('../flows/unlock/UnlockView.tsx'), 'UnlockView'),
});

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

/**
 * Registration is offered only inside the companion app (spec §2). Elsewhere the router's history
 * blocker (router.tsx) cancels the navigation, so the user stays where they are; this guard covers
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
  component: lazyRouteComponent(() => import('../flows/register/RegisterView.tsx'), 'RegisterView'),
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
  validateSearch: (search: Record<string, unknown>): { type?: string } => (typeof search.type === 'string' ? { type: search.type } : {}),
});
const faqIndexRoute = createRoute({ getParentRoute: () => faqRoute, path: '/', component: notYetAvailable });
const faqPageRoute = createRoute({ getParentRoute: () => faqRoute, path: '$', component: notYetAvailable });

const debuggerRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/debugger',
  beforeLoad: () => {
    throw redirect({ to: '/home', replace: true });
  },
});

const customerSupportRoute = createRoute({ getParentRoute: () => rootRoute, path: '/customer-support', component: notYetAvailable });
const previewRoute = createRoute({ getParentRoute: () => rootRoute, path: '/preview', component: notYetAvailable });
const changeAddressRoute = createRoute({ getParentRoute: () => rootRoute, path: '/change-address/{-$step}', component: notYetAvailable });
const changePhoneNumberRoute = createRoute({ getParentRoute: () => rootRoute, path: '/change-phone-number/{-$step}', component: notYetAvailable });
const replacementCardRoute = createRoute({ getParentRoute: () => rootRoute, path: '/replacement-card/{-$step}', component: notYetAvailable });

/**
 * Every screen that needs an access token (spec §2) sits under this pathless layout route, whose guard
 * runs before theirs: no refresh token → sign in; no access token → unlock; the route is remembered.
 * /home and /manage-card check it before their experiment redirect, so the route remembered is the one
 * asked for; after sign-in that route redirects again.
 */
const accessTokenScreens = createRoute({
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

const homeRoute = createRoute({
  getParentRoute: () => accessTokenScreens,
  path: '/home',
  beforeLoad: async ({ context }) => {
    if ((await experimentFlags(context)).showNewDebitDetails) throw redirect({ to: '/home2', replace: true });
  },
  component: homeView,
});
const home1Route = createRoute({ getParentRoute: () => accessTokenScreens, path: '/home1', component: homeView });
const home2Route = createRoute({ getParentRoute: () => accessTokenScreens, path: '/home2', component: home2View });

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

const transactionsRoute = createRoute({ getParentRoute: () => accessTokenScreens, path: '/transactions' });
const transactionsListRoute = createRoute({ getParentRoute: () => transactionsRoute, path: '/', component: notYetAvailable });
const transactionDetailRoute = createRoute({ getParentRoute: () => transactionsRoute, path: 'detail', component: notYetAvailable });

const manageCardRoute = createRoute({
  getParentRoute: () => accessTokenScreens,
  path: '/manage-card',
  beforeLoad: async ({ context }) => {
    if ((await experimentFlags(context)).virtualCards) throw redirect({ to: '/manage-cards', replace: true });
  },
  component: notYetAvailable,
});

const manageAccountRoute = createRoute({
  getParentRoute: () => accessTokenScreens,
  path: '/manage-account',
  component: lazyRouteComponent(() => import('../flows/manageAccount/ManageAccountView.tsx'), 'ManageAccountView'),
});

const manageCardsRoute = createRoute({ getParentRoute: () => accessTokenScreens, path: '/manage-cards', component: notYetAvailable });
const resetPinRoute = createRoute({ getParentRoute: () => accessTokenScreens, path: '/reset-pin/{-$step}', component: notYetAvailable });
const statementsRoute = createRoute({ getParentRoute: () => accessTokenScreens, path: '/statements', component: notYetAvailable });
const taxRoute = createRoute({ getParentRoute: () => accessTokenScreens, path: '/tax', component: notYetAvailable });
const addMoneyRoute = createRoute({ getParentRoute: () => accessTokenScreens, path: '/add-money', component: notYetAvailable });
const loadCashRoute = createRoute({ getParentRoute: () => accessTokenScreens, path: '/load-cash', component: notYetAvailable });
const cashLoadMapRoute = createRoute({ getParentRoute: () => accessTokenScreens, path: '/cash-load-map', component: notYetAvailable });
const transferMoneyRoute = createRoute({ getParentRoute: () => accessTokenScreens, path: '/transfer-money', component: notYetAvailable });
const managePrimeRoute = createRoute({ getParentRoute: () => accessTokenScreens, path: '/manage-prime', component: notYetAvailable });
const manageSnapbackRoute = createRoute({ getParentRoute: () => accessTokenScreens, path: '/manage-snapback', component: notYetAvailable });

export const routeTree = rootRoute.addChildren([
  indexRoute,
  signInRoute,
  unlockRoute,
  resetUnlockCodeRoute,
  resetPasswordRoute,
  registerRoute,
  carrierDeepLinkRoute,
  faqRoute.addChildren([faqIndexRoute, faqPageRoute]),
  debuggerRoute,
  customerSupportRoute,
  previewRoute,
  changeAddressRoute,
  changePhoneNumberRoute,
  replacementCardRoute,
  accessTokenScreens.addChildren([
    homeRoute,
    home1Route,
    home2Route,
    activateRoute,
    orderCardRoute,
    directDepositRoute.addChildren([directDepositIndexRoute, directDepositFormRoute, directDepositWhereRoute]),
    transactionsRoute.addChildren([transactionsListRoute, transactionDetailRoute]),
    manageCardRoute,
    manageAccountRoute,
    manageCardsRoute,
    resetPinRoute,
    statementsRoute,
    taxRoute,
    addMoneyRoute,
    loadCashRoute,
    cashLoadMapRoute,
    transferMoneyRoute,
    managePrimeRoute,
    manageSnapbackRoute,
  ]),
]);
