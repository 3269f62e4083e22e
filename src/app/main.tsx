/**
 * Start-up: restore core state, start the session actor, wire the API client, activate the
 * locale, render the router. The loader overlay in index.html goes after the first navigation.
 */
import { I18nProvider } from '@lingui/react';
import { i18n } from '@lingui/core';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createActor, fromPromise } from 'xstate';
import { sessionMachine } from '../../machines/session.ts';
import { createApi } from '../api/client.ts';
import { activateLocale, detectLocale } from '../i18n/locale.ts';
import { cardApiAnalyticsTransport, createAnalytics } from './analytics.ts';
import type { AppContext } from './context.ts';
import { safeRedirect } from './guards.ts';
import { createStateSaver, restoreState, storageKey } from './persistence.ts';
import { createAppRouter, type AppRouter } from './router.tsx';
import { ServicesProvider } from './services.tsx';
import '../styles.css';

/** Embedded in the companion app's iframe; the host protocol arrives with the embedded-mode issue. */
const embedded = window.parent !== window;
const guardsEnabled = import.meta.env.VITE_GUARDS !== 'off';

const initial = restoreState(embedded ? null : localStorage.getItem(storageKey), detectLocale());
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
        void router.navigate({ to: context.refreshToken ? '/unlock' : '/signin', search, replace: true });
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
  { input: initial },
);

const headers = () => {
  const { fingerprint, deviceUUID } = session.getSnapshot().context;
  return { Fingerprint: fingerprint, 'Device-UUID': deviceUUID };
};
const analytics = createAnalytics(cardApiAnalyticsTransport(headers));
addEventListener('pagehide', () => analytics.flushOnExit());

const api = createApi({
  session: () => session.getSnapshot().context,
  onRefreshRequired: () => session.send({ type: 'session.refreshRequired' }),
  onSignInRequired: () => session.send({ type: 'session.signInRequired' }),
  onNoStatusCode: ({ path, httpStatus, suppressErrorModal }) => {
    analytics.track('api.noStatusCode', { path, httpStatus });
    if (!suppressErrorModal) session.send({ type: 'errorModal.open' });
  },
});

const services: AppContext = {
  session,
  api,
  analytics,
  guardsEnabled,
  embedded,
  experiments: () => ({ virtualCards: false, directDeposit: false, cashLoadMap: false, showNewDebitDetails: false }),
};
router = createAppRouter(services);

const saveState = createStateSaver(localStorage, { embedded });
let lastAuth = session.getSnapshot().value;
session.subscribe((snapshot) => {
  saveState(snapshot.context);
  void activateLocale(snapshot.context.locale);
  const auth = (snapshot.value as { auth: string }).auth;
  if (auth !== (lastAuth as { auth: string }).auth) void router?.invalidate();
  lastAuth = snapshot.value;
});
session.start();

const hideLoader = router.subscribe('onResolved', () => {
  document.getElementById('loader-overlay')?.remove();
  hideLoader();
});

await activateLocale(session.getSnapshot().context.locale);
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <I18nProvider i18n={i18n}>
      <ServicesProvider services={services}>
        <RouterProvider router={router} />
      </ServicesProvider>
    </I18nProvider>
  </StrictMode>,
);
