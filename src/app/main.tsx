/**
 * Browser start-up: read the server's config, find out whether the companion app embeds us, restore
 * core state (from the host when embedded, else localStorage), create the app, persist every change,
 * follow the locale, render. The loader overlay in index.html goes after the first navigation.
 */
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode, startTransition } from 'react';
import { framingOf, isEmbedded } from '../shared/host/detection.ts';
import { standaloneHost } from '../shared/host/host.ts';
import { activateLocale, detectLocale, labelSplash } from '../shared/i18n/locale.ts';
import { cardApiAnalyticsTransport } from './analytics.ts';
import { readAppConfig } from './appConfig.ts';
import { createAppInSteps, type App } from './createApp.ts';
import { cardApiErrorTransport, consoleTransport, createErrorReporter } from './errorReporting.ts';
import { createStateSaver, localStorageWriter, restoreState, storageKey } from './persistence.ts';
import { ServicesProvider } from './services.tsx';
import '../styles.css';

// No top-level await: it would make the bundler split everything the lazy views share with this
// entry into separate chunks (a lazy chunk importing from an entry that awaits would deadlock), and on
// a slow phone every extra chunk before the first screen costs a round trip.
void start();

async function start() {
  // A slow phone's main thread is never held long (Lighthouse's TBT): the bundle's evaluation, the
  // app's creation and the first render each run in their own task.
  await nextTask();
  const config = readAppConfig(document);
  const framing = framingOf(window);
  const embedded = isEmbedded(framing, config);

  let deviceHeaders = (): Record<string, string> => ({});
  const errors = createErrorReporter(
    config.sandbox ? [consoleTransport, cardApiErrorTransport(() => deviceHeaders())] : [consoleTransport],
  );

  // Embedded, the host keeps state and answers for the device; its code loads only then.
  const started = embedded
    ? await (await import('../shared/host/startEmbedded.ts')).startEmbedded(window, {
        config,
        parentOrigin: framing.parentOrigin,
        defaultLocale: detectLocale(),
        errors,
      })
    : {
        initial: restoreState(localStorage.getItem(storageKey), detectLocale()),
        host: standaloneHost(window),
        saveState: localStorageWriter(localStorage),
        needsRegistration: false,
        mustResetUnlockCode: false,
      };
  labelSplash(started.initial.locale);
  // A companion user without a card account lands on registration rather than sign-in; one whose unlock
  // code is locked resets it first.
  if (started.needsRegistration && !location.pathname.startsWith('/register')) history.replaceState(null, '', '/register');
  if (started.mustResetUnlockCode) history.replaceState(null, '', '/reset-unlock-code');

  const { services, router, session } = await inTasks(
    createAppInSteps({
      initial: started.initial,
      embedded,
      host: started.host,
      errors,
      guardsEnabled: import.meta.env.VITE_GUARDS !== 'off',
      storage: embedded ? null : localStorage,
      analyticsTransport: cardApiAnalyticsTransport(() => deviceHeaders()),
    }),
  );
  deviceHeaders = () => {
    const { fingerprint, deviceUUID } = session.getSnapshot().context;
    return { Fingerprint: fingerprint, 'Device-UUID': deviceUUID };
  };
  addEventListener('pagehide', () => services.analytics.flushOnExit());
  // A page restored from the back-forward cache shows its old screen (maybe a balance after sign-out):
  // start again from the stored state instead.
  addEventListener('pageshow', (event) => {
    if (event.persisted) location.reload();
  });

  const saveState = createStateSaver(started.saveState, { embedded });
  // A sign-out reaches the app's other tabs (standalone: the browser keeps one session for all of
  // them), which sign out too instead of showing the account. Only a sign-out says so: a tab that is
  // merely signed out says nothing. Not for a tab already signed out (its sign-in modal stays), nor a
  // message that comes late (a tab the phone froze meanwhile: the user may have signed in again since).
  const signOuts = embedded ? null : new BroadcastChannel('providers-card:sign-out');
  session.subscribe((snapshot) => {
    saveState(snapshot.context);
    void activateLocale(snapshot.context.locale);
  });
  // A sign-out told by another tab is not passed on: a tab thawed late would sign out the session the
  // first tab has started again since.
  let told = false;
  session.on('signedOut', () => told || signOuts?.postMessage(Date.now()));
  if (signOuts) {
    signOuts.onmessage = ({ data }) => {
      told = true;
      if (session.getSnapshot().hasTag('signedIn') && Date.now() - data < 10_000) session.send({ type: 'user.signOut' });
      told = false;
    };
  }

  const firstScreenShown = new Promise<void>((shown) => {
    const hideLoader = router.subscribe('onRendered', () => {
      document.getElementById('loader-overlay')?.remove();
      hideLoader();
      shown();
    });
  });

  // Every change of the session is saved from its creation on; the first screen loads in a task of its own.
  await nextTask();
  // The messages and the first screen (its guards and lazy view) load together, before React renders:
  // it then renders that screen once, instead of a pending screen and then the screen again.
  await Promise.all([activateLocale(session.getSnapshot().context.locale), router.load()]);
  await nextTask();
  // React DOM is evaluated here, in a task of its own, and not with the bundle: the bundle's evaluation
  // stays short on a slow phone. In the build `require` is a call of React DOM's module inside this
  // bundle; the dev server serves modules, so it imports.
  const { createRoot } = import.meta.env.DEV ? await import('react-dom/client') : withoutErrorStacks(requireReactDom);
  // The root's creation (it listens for every event React handles) and the first render start in the
  // next task: with React DOM's evaluation, they made one of the longest tasks of the load.
  await nextTask();
  // A transition renders in slices, yielding to the phone between them.
  startTransition(() =>
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <I18nProvider i18n={i18n}>
          <ServicesProvider services={services}>
            <RouterProvider router={router} />
          </ServicesProvider>
        </I18nProvider>
      </StrictMode>,
    ),
  );

  // Standalone only: inside the companion app the host owns the phone's storage.
  if (import.meta.env.PROD && !embedded) {
    // A failed load (the network gone meanwhile) only means no offline copy yet: the next visit tries again.
    void firstScreenShown.then(() =>
      afterLoadWhenIdle(() =>
        import('../shared/offline/registerServiceWorker.ts').then(
          ({ registerServiceWorker }) => registerServiceWorker(),
          () => {},
        ),
      ),
    );
  }
}

/**
 * Runs `work` once the page has loaded and the phone is idle (at the latest 5 s later). For the
 * service worker, after the first screen: its install fetches the app shell and then keeps every asset
 * the page hands it, on a thread of the page's own process, and it took the cores the first screen
 * was drawn with (docs/performance.md, "The headroom run").
 */
function afterLoadWhenIdle(work: () => void) {
  const whenIdle = () => (typeof requestIdleCallback === 'function' ? requestIdleCallback(work, { timeout: 5000 }) : setTimeout(work, 1000));
  if (document.readyState === 'complete') whenIdle();
  else addEventListener('load', whenIdle, { once: true });
}

// eslint-disable-next-line @typescript-eslint/no-require-imports -- deliberately lazy, see start()
const requireReactDom = () => require('react-dom/client') as typeof import('react-dom/client');

/**
 * Runs `body` with no stack recorded for the errors it creates (a limit that is not a number turns that
 * off). For React DOM's evaluation: it creates three marker errors (Suspense's sentinels, never shown or
 * reported). On a phone their stacks cost about a millisecond; with DevTools attached (Lighthouse, any
 * profiling) V8 records each one in detail and first re-parses its 200 KB module to place the frames,
 * 10–15 ms on one task that the lab then counts as blocking. Only a failure inside React DOM's own
 * evaluation would lose its stack.
 */
function withoutErrorStacks<T>(body: () => T): T {
  const limit = Error.stackTraceLimit;
  (Error as { stackTraceLimit: unknown }).stackTraceLimit = undefined;
  try {
    return body();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** Runs the app's creation a step a task. */
async function inTasks(steps: Generator<void, App>): Promise<App> {
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return step.value;
    await nextTask();
  }
}

/** Resolves in a new task, so the browser can paint and handle input first. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
