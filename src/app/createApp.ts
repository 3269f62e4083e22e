/**
 * Wires the root actor system: the session actor, the API client that reports auth codes to it,
 * analytics, and the router. The browser start-up (main.tsx) creates it in steps, the flow tests at once.
 */
import { createBrowserHistory, type RouterHistory } from '@tanstack/react-router';
import type { $Fetch } from 'ofetch';
import { createActor, fromPromise, type Actor } from 'xstate';
import type { ExperimentFlags } from '../../contract/experiments/types.ts';
import { experimentsMachine } from '../../machines/experiments/experiments.ts';
import { isSessionToken, sessionMachine, type SessionInput } from '../../machines/session/session.ts';
import { StatusCode } from '../../contract/shared/statusCodes.ts';
import { createApi } from '../shared/api/client.ts';
import { slowAnswerMs } from '../../machines/shared/lastKnown.ts';
import { forgetLastKnown } from '../shared/offline/forgetLastKnown.ts';
import type { Host } from '../shared/host/host.ts';
import { createAnalytics, type AnalyticsTransport } from './analytics.ts';
import type { AppContext } from './context.ts';
import type { ErrorReporter } from './errorReporting.ts';
import { safeRedirect } from './guards.ts';
import { createAppRouter, type AppRouter } from './router.tsx';

export type AppOptions = {
  initial: SessionInput;
  embedded: boolean;
  guardsEnabled: boolean;
  analyticsTransport: AnalyticsTransport;
  errors: ErrorReporter;
  host: Host;
  history?: RouterHistory;
  fetcher?: $Fetch;
  /** Where the last-known balance and activity are kept (none: nothing is kept). */
  storage?: Storage | null;
  /** How long home and activity wait for an answer before they show the last-known copy meanwhile (`slowAnswerMs`, 4 s). */
  slowAnswerMs?: number;
};

export type App = { services: AppContext; router: AppRouter; session: Actor<typeof sessionMachine> };

/** The app, created at once (the flow tests). */
export function createApp(options: AppOptions): App {
  const steps = createAppInSteps(options);
  let step = steps.next();
  while (!step.done) step = steps.next();
  return step.value;
}

/**
 * The app's creation in steps (the actors, the browser history, the router, starting the experiments,
 * starting the session), each a few milliseconds: start-up (main.tsx) gives the phone back between them,
 * so none makes one long task.
 */
export function* createAppInSteps(options: AppOptions): Generator<void, App> {
  let router: AppRouter | undefined;
  /** Calls waiting for the auth modal: each gets the new access token, or null when the work is given up. */
  let waitingCalls: ((accessToken: string | null) => void)[] = [];
  const settleWaitingCalls = (accessToken: string | null) => {
    const waiting = waitingCalls;
    waitingCalls = [];
    for (const resume of waiting) resume(accessToken);
  };

  const session = createActor(
    sessionMachine.provide({
      actions: {
        openAuth: ({ context }) => {
          if (!router) return;
          const here = router.state.location;
          const onAuthScreen = here.pathname === '/unlock' || here.pathname.startsWith('/signin');
          const remembered = onAuthScreen ? safeRedirect((here.search as { redirect?: unknown }).redirect) : here.href;
          const search = remembered && remembered !== '/' ? { redirect: remembered } : {};
          void router.navigate({ to: isSessionToken(context.refreshToken) ? '/unlock' : '/signin/{-$step}', params: { step: undefined }, search, replace: true });
        },
        // `step: undefined`: an empty params object would carry the current screen's step over.
        goToSignIn: () => void router?.navigate({ to: '/signin/{-$step}', params: { step: undefined }, replace: true }),
        // Navigation waits for the chart's step to finish, so the guards see the auth modal open.
        maskRoute: ({ context }) => {
          const at = context.interruption?.location;
          if (!at) return;
          const authRoute = isSessionToken(context.refreshToken) ? '/unlock' : '/signin';
          queueMicrotask(() => void (router && maskWithAuthRoute(router, at, authRoute)));
        },
        // At once, not after the step: a navigation the flow starts next (sign-in's "reset your unlock
        // code first") must come later and win.
        resumeInterruption: ({ context }, { access }) => {
          const at = context.interruption?.location;
          settleWaitingCalls(access);
          if (at) void router?.navigate({ href: at, replace: true, resetScroll: false });
        },
        abandonInterruption: () => settleWaitingCalls(null),
        goHome: () => void router?.navigate({ to: '/home', replace: true }),
      },
      actors: {
        // `api` is created below; the actor only runs after start-up.
        // Never fails (the chart's rule): offline or refused, the phone has signed out already.
        signOut: fromPromise(async ({ input }) => {
          await api.signOut(input.refreshToken).catch(() => {});
        }),
      },
    }),
    { input: options.initial },
  );

  const analytics = createAnalytics(options.analyticsTransport);
  const api = createApi(
    {
      session: () => {
        const { context } = session.getSnapshot();
        // The marker a refused application leaves is no session: its calls go as signed out's.
        return isSessionToken(context.refreshToken) ? context : { ...context, refreshToken: null };
      },
      onAuthRequired: (statusCode) => {
        const location = router?.state.location.href;
        session.send({ type: statusCode === StatusCode.REFRESH_REQUIRED ? 'session.refreshRequired' : 'session.signInRequired', location });
        if (!session.getSnapshot().hasTag('authModalOpen')) return Promise.resolve(null);
        return new Promise<string | null>((resume) => waitingCalls.push(resume));
      },
      onNoStatusCode: ({ path, httpStatus, suppressErrorModal }) => {
        analytics.track('api.noStatusCode', { path, httpStatus });
        if (!suppressErrorModal) session.send({ type: 'errorModal.open' });
      },
      onUnexpectedError: ({ path }) => options.errors.warning('UNEXPECTED_ERROR from the card API', { path }),
    },
    options.fetcher,
  );

  const experiments = createActor(
    experimentsMachine.provide({
      actions: {
        exposeFlags: (_, flags) => analytics.setUserProperties(exposures(flags)),
        reportFailure: (_, error) =>
          options.errors.error('Experiment config failed to load', { reason: error instanceof Error ? error.message : 'unknown' }),
      },
      actors: { fetchExperiments: fromPromise(({ input }) => api.getExperiments(input.isInternal)) },
    }),
    { input: { isInternal: options.initial.isInternal } },
  );
  yield;
  // A step of its own: the browser's history marks the page's entry as the router's (history.replaceState),
  // 6–10 ms here with DevTools attached, which made the router's step one of the load's longest tasks.
  const history = options.history ?? createBrowserHistory();
  yield;

  const services: AppContext = {
    session,
    api,
    analytics,
    errors: options.errors,
    host: options.host,
    guardsEnabled: options.guardsEnabled,
    embedded: options.embedded,
    previousLocation: () => router?.state.resolvedLocation,
    experiments,
    offlineStorage: options.embedded ? null : (options.storage ?? null),
    slowAnswerMs: options.slowAnswerMs ?? slowAnswerMs,
  };
  router = createAppRouter(services, history);

  // Guards read the session snapshot, so they run again whenever the auth state changes (except
  // under the auth modal: the interrupted screen stays as it is until the modal is done).
  let lastAuth = session.getSnapshot().value.auth;
  let lastInternal = options.initial.isInternal;
  let lastAccessToken = options.initial.accessToken;
  session.subscribe((snapshot) => {
    // The session is over (signed out, or sign-in required): what was kept about the account goes too.
    if (snapshot.context.refreshToken === null) forgetLastKnown(services.offlineStorage);
    // A new access token (sign-in, unlock, refresh): when this phone got it, for the offline copy's lock.
    // The store loads with it (home's screens need it next), not in every first load.
    const token = snapshot.context.accessToken;
    if (token !== lastAccessToken) {
      lastAccessToken = token;
      const at = Date.now();
      if (token) void import('../shared/offline/lastKnown.ts').then(({ noteTokenReceived }) => noteTokenReceived(services.offlineStorage, token, at));
    }
    if (snapshot.value.auth !== lastAuth && !snapshot.hasTag('authModalOpen')) void router?.invalidate();
    lastAuth = snapshot.value.auth;
    // Internal users may see other experiments: fetch the config again when that changes.
    if (snapshot.context.isInternal !== lastInternal) {
      lastInternal = snapshot.context.isInternal;
      experiments.send({ type: 'session.internalChanged', isInternal: lastInternal });
    }
  });
  // Going anywhere but the interrupted screen while the auth modal is open gives that work up.
  router.subscribe('onResolved', ({ toLocation }) => {
    const snapshot = session.getSnapshot();
    if (snapshot.hasTag('authModalOpen') && toLocation.href !== snapshot.context.interruption?.location) {
      session.send({ type: 'authModal.left' });
    }
  });
  yield;
  experiments.start(); // sends the experiment config call, the page's first fetch (its setup is several ms)
  yield;
  session.start();

  return { services, router, session };
}

/**
 * The interrupted screen stays, with /unlock or /signin (remembering the screen) in the address bar.
 * A reload drops the mask and opens that auth route for real.
 */
function maskWithAuthRoute(router: AppRouter, location: string, authRoute: '/unlock' | '/signin') {
  const mask = { search: { redirect: location }, unmaskOnReload: true };
  return router.navigate({
    href: location,
    mask: authRoute === '/unlock' ? { ...mask, to: '/unlock' } : { ...mask, to: '/signin/{-$step}', params: { step: undefined } },
    replace: true,
    resetScroll: false,
    // A marker, so the router commits the mask although the screen's own location does not change.
    state: (previous) => ({ ...previous, underAuthModal: true }),
  });
}

/** Experiment exposures as analytics user properties (spec §7). */
function exposures(flags: ExperimentFlags): Record<string, boolean> {
  return Object.fromEntries(Object.entries(flags).map(([flag, on]) => [`experiment.${flag}`, on]));
}

