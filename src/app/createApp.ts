/**
 * Wires the root actor system: the session actor, the API client that reports auth codes to it,
 * analytics, and the router. Shared by the browser start-up (main.tsx) and the flow tests.
 */
import type { RouterHistory } from '@tanstack/react-router';
import type { $Fetch } from 'ofetch';
import { createActor, fromPromise } from 'xstate';
import { sessionMachine, type SessionInput } from '../../machines/session.ts';
import { createApi } from '../api/client.ts';
import { createAnalytics, type AnalyticsTransport } from './analytics.ts';
import type { AppContext } from './context.ts';
import { safeRedirect } from './guards.ts';
import { createAppRouter, type AppRouter } from './router.tsx';

export type AppOptions = {
  initial: SessionInput;
  embedded: boolean;
  guardsEnabled: boolean;
  analyticsTransport: AnalyticsTransport;
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
          void router.navigate({ to: context.refreshToken ? '/unlock' : '/signin/{-$step}', params: {}, search, replace: true });
        },
        goToSignIn: () => void router?.navigate({ to: '/signin/{-$step}', params: {}, replace: true }),
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
    },
    options.fetcher,
  );

  const services: AppContext = {
    session,
    api,
    analytics,
    guardsEnabled: options.guardsEnabled,
    embedded: options.embedded,
    previousPathname: () => router?.state.resolvedLocation?.pathname,
    experiments: () => ({ virtualCards: false, directDeposit: false, cashLoadMap: false, showNewDebitDetails: false }),
  };
  router = createAppRouter(services, options.history);

  // Guards read the session snapshot, so they run again whenever the auth state changes.
  let lastAuth = session.getSnapshot().value.auth;
  session.subscribe((snapshot) => {
    if (snapshot.value.auth !== lastAuth) void router?.invalidate();
    lastAuth = snapshot.value.auth;
  });
  session.start();

  return { services, router, session };
}

