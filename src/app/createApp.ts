/**
 * Wires the root actor system: the session actor, the API client that reports auth codes to it,
 * analytics, and the router. Shared by the browser start-up (main.tsx) and the flow tests.
 */
import type { RouterHistory } from '@tanstack/react-router';
import type { $Fetch } from 'ofetch';
import { createActor, fromPromise } from 'xstate';
import type { ExperimentFlags } from '../../contract/api.ts';
import { experimentsMachine } from '../../machines/experiments.ts';
import { isSessionToken, sessionMachine, type SessionInput } from '../../machines/session.ts';
import { createApi } from '../api/client.ts';
import type { Host } from '../host/host.ts';
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
};

export function createApp(options: AppOptions) {
  let router: AppRouter | undefined;

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
      },
      actors: {
        // `api` is created below; the actor only runs after start-up.
        signOut: fromPromise(async ({ input }) => {
          await api.signOut(input.refreshToken);
        }),
      },
    }),
    { input: options.initial },
  );

  const analytics = createAnalytics(options.analyticsTransport);
  const api = createApi(
    {
      session: () => session.getSnapshot().context,
      onRefreshRequired: () => session.send({ type: 'session.refreshRequired' }),
      onSignInRequired: () => session.send({ type: 'session.signInRequired' }),
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

  const services: AppContext = {
    session,
    api,
    analytics,
    errors: options.errors,
    host: options.host,
    guardsEnabled: options.guardsEnabled,
    embedded: options.embedded,
    previousPathname: () => router?.state.resolvedLocation?.pathname,
    experiments,
  };
  router = createAppRouter(services, options.history);

  // Guards read the session snapshot, so they run again whenever the auth state changes.
  let lastAuth = session.getSnapshot().value.auth;
  let lastInternal = options.initial.isInternal;
  session.subscribe((snapshot) => {
    if (snapshot.value.auth !== lastAuth) void router?.invalidate();
    lastAuth = snapshot.value.auth;
    // Internal users may see other experiments: fetch the config again when that changes.
    if (snapshot.context.isInternal !== lastInternal) {
      lastInternal = snapshot.context.isInternal;
      experiments.send({ type: 'session.internalChanged', isInternal: lastInternal });
    }
  });
  experiments.start();
  session.start();

  return { services, router, session };
}

/** Experiment exposures as analytics user properties (spec §7). */
function exposures(flags: ExperimentFlags): Record<string, boolean> {
  return Object.fromEntries(Object.entries(flags).map(([flag, on]) => [`experiment.${flag}`, on]));
}

