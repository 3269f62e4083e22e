/**
 * Browser start-up: restore core state, create the app, persist every change, follow the locale,
 * render. The loader overlay in index.html goes after the first navigation.
 */
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { activateLocale, detectLocale } from '../i18n/locale.ts';
import { cardApiAnalyticsTransport } from './analytics.ts';
import { createApp } from './createApp.ts';
import { createStateSaver, restoreState, storageKey } from './persistence.ts';
import { ServicesProvider } from './services.tsx';
import '../styles.css';

/** Embedded in the companion app's iframe; the host protocol arrives with the embedded-mode issue. */
const embedded = window.parent !== window;

const initial = restoreState(embedded ? null : localStorage.getItem(storageKey), detectLocale());
const { services, router, session } = createApp({
  initial,
  embedded,
  guardsEnabled: import.meta.env.VITE_GUARDS !== 'off',
  analyticsTransport: cardApiAnalyticsTransport(() => {
    const { fingerprint, deviceUUID } = session.getSnapshot().context;
    return { Fingerprint: fingerprint, 'Device-UUID': deviceUUID };
  }),
});
addEventListener('pagehide', () => services.analytics.flushOnExit());
// A page restored from the back-forward cache shows its old screen (maybe a balance after sign-out):
// start again from the stored state instead.
addEventListener('pageshow', (event) => {
  if (event.persisted) location.reload();
});

const saveState = createStateSaver(localStorage, { embedded });
session.subscribe((snapshot) => {
  saveState(snapshot.context);
  void activateLocale(snapshot.context.locale);
});

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
