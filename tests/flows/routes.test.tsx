/** Route table behaviour of spec §2 through the real router: redirects, data-dependent guards, visits. */
import { I18nProvider } from '@lingui/react';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from '@tanstack/react-router';
import { act, cleanup, render, renderHook, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '@lingui/core';
import { screenTitles } from '../../src/app/screenTitles.ts';
import { ErrorView, isDownloadFailure } from '../../src/shared/screens/ErrorView.tsx';
import { noteServerAnswered } from '../../src/shared/api/serverAnswered.ts';
import { ApiUnavailableError } from '../../src/shared/api/client.ts';
import { errorTitle, useOwnTitle, useShownOwnTitle } from '../../src/shared/screens/documentTitle.ts';
import { activateLocale } from '../../src/shared/i18n/locale.ts';
import { user, userPath } from '../support/cardOrder.ts';
import { active, locked, renderApp, signedOut } from '../support/renderApp.tsx';

const homeWith = (overrides: Record<string, unknown>) => ({
  statusCode: 0,
  accountOverview: {
    balance: 0,
    onHold: 0,
    cards: [],
    transactions: [],
    prn: '400012345678',
    flags: { hasFunded: false, hasFundedAnyKind: false },
    ebtRewardOwed: 0,
    ebtRewardsClaimedThisPeriod: 0,
  },
  registrationWave: null,
  pendingCard: null,
  virtualCard: null,
  prn: '400012345678',
  hasFundedAnyKind: false,
  ...overrides,
});

const pendingCard = { id: 'p1', type: 'PHYSICAL', status: 'SHIPPED', frozen: false, isActive: false, isPending: true, lastFour: '7390' };

async function answerHome(app: Awaited<ReturnType<typeof renderApp>>, body: unknown) {
  await waitFor(() => expect(app.cardApi.isWaiting('/api/v1/home')).toBe(true));
  app.cardApi.answer('/api/v1/home', body);
}

describe('route table', () => {
  it('sends / to home, and home without tokens to sign-in remembering it', async () => {
    const app = await renderApp('/', signedOut);
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/signin'));
    expect(app.router.state.location.search).toEqual({ redirect: '/home' });
  });

  // TanStack lays a route's checked search over the address's own, so a refused key must come back
  // as undefined, not be left out, or the raw value reaches the screen.
  it.each([
    ['/signin?redirect=https%3A%2F%2Fevil.example%2Fhome', signedOut, '/signin', 'redirect'],
    ['/transactions/detail?id=123', active, '/transactions/detail', 'id'],
    ['/replacement-card?cardId=%7B%22a%22%3A1%7D', active, '/replacement-card', 'cardId'],
    ['/reset-password?then=home', signedOut, '/reset-password', 'then'],
    ['/faq?type=7', signedOut, '/faq', 'type'],
  ] as const)('drops a refused search value: %s', async (address, session, pathname, key) => {
    const app = await renderApp(address, session);
    await waitFor(() => expect(app.router.state.location.pathname).toBe(pathname));
    expect(app.router.state.matches.at(-1)?.search).not.toHaveProperty(key, expect.anything());
  });

  it('blocks /debugger always', async () => {
    const app = await renderApp('/debugger', active);
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/home'));
  });

  it('cancels /register outside the companion app', async () => {
    const app = await renderApp('/register', signedOut);
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/signin'));
  });

  /** Home data and the address, each asked for once: the chart decides the step, no guard reads home data too. */
  async function answerOrderCardLoads(app: Awaited<ReturnType<typeof renderApp>>, funded: boolean) {
    await answerHome(app, homeWith({ hasFundedAnyKind: funded }));
    await waitFor(() => expect(app.cardApi.isWaiting(userPath)).toBe(true));
    app.cardApi.answer(userPath, { statusCode: 0, user });
    expect(app.cardApi.requests.filter((request) => request.path === '/api/v1/home')).toHaveLength(1);
  }

  it('opens order-card at step 2 when the account was already funded', async () => {
    const app = await renderApp('/order-card', active);
    await answerOrderCardLoads(app, true);
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/order-card/2'));
  });

  it('keeps order-card at step 1 for an account never funded', async () => {
    const app = await renderApp('/order-card/1', active);
    await answerOrderCardLoads(app, false);
    // Step 1: what the card is and costs.
    expect(await screen.findByText(/^Sending it costs \$5\.00, taken from your balance\./)).toBeTruthy();
    expect(app.router.state.location.pathname).toBe('/order-card/1');
  });

  it('sends activation arriving from outside to home when no card awaits activation', async () => {
    const app = await renderApp('/activate/1', active);
    await answerHome(app, homeWith({ pendingCard: null }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/home'));
  });

  it('turns the carrier deep link into activation step 1 with source=carrier', async () => {
    const app = await renderApp('/carrier-deep-link', active);
    await answerHome(app, homeWith({ pendingCard }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/activate/1'));
    expect(app.router.state.location.search).toMatchObject({ source: 'carrier' });
  });

  it('sends direct-deposit/form to its first step', async () => {
    const app = await renderApp('/direct-deposit/form', active);
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/direct-deposit/form/1'));
  });

  it('logs route visits with name, params, query and the previous route', async () => {
    const app = await renderApp('/add-money?from=test', active);
    await screen.findByText('This screen is not available yet.');
    await app.router.navigate({ to: '/tax' });
    await screen.findByText('This screen is not available yet.');
    await app.services.analytics.flush();
    const visits = app.tracked.filter((event) => event.name === 'route.visit').map((event) => event.properties);
    expect(visits).toEqual([
      { name: '/add-money', params: {}, query: { from: 'test' }, previousRouteName: null },
      { name: '/tax', params: {}, query: {}, previousRouteName: '/add-money' },
    ]);
  });
});

/**
 * Spec §2's screens that need an access token, each under the one guarded layout route; and
 * /replacement-card, which loads the user first (a call that needs one).
 */
const accessTokenPaths = [
  '/home',
  '/home1',
  '/home2',
  '/activate/1',
  '/order-card',
  '/direct-deposit',
  '/direct-deposit/form/1',
  '/direct-deposit/where',
  '/transactions',
  '/transactions/detail',
  '/manage-card',
  '/manage-cards',
  '/manage-account',
  '/reset-pin/1',
  '/statements',
  '/tax',
  '/add-money',
  '/load-cash',
  '/cash-load-map',
  '/transfer-money',
  '/manage-prime',
  '/manage-snapback',
  '/replacement-card',
];

describe('the access-token screens', () => {
  it.each(accessTokenPaths)('%s sends a visitor without tokens to sign-in, remembering it', async (path) => {
    const app = await renderApp(path, signedOut);
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/signin'));
    expect(app.router.state.location.search).toEqual({ redirect: path });
  });

  it.each(accessTokenPaths)('%s sends a locked session to unlock, remembering it', async (path) => {
    const app = await renderApp(path, locked);
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/unlock'));
    expect(app.router.state.location.search).toEqual({ redirect: path });
  });

  it('sit under one pathless layout route, which holds the guard; public screens do not', async () => {
    const app = await renderApp('/tax', active);
    const layoutOf = (path: string) => app.router.matchRoutes(path, {})[1]?.routeId;
    expect(new Set(accessTokenPaths.map(layoutOf))).toEqual(new Set(['/_accessToken']));
    expect(app.router.routesById['/_accessToken'].options.beforeLoad).toBeDefined();
    for (const path of ['/signin', '/unlock', '/reset-password', '/faq', '/customer-support', '/change-address']) {
      expect(layoutOf(path)).not.toBe('/_accessToken');
    }
  });
});

describe('each screen’s own title (WCAG 2.2 SC 2.4.2)', () => {
  it('every route with a screen has a title, different in English and Spanish where the words differ', async () => {
    const app = await renderApp('/signin', signedOut);
    const screens = Object.values(app.router.routesById).filter((route) => route.options.component && !route.isRoot);
    expect(screens.length).toBeGreaterThan(30);
    for (const route of screens) expect(screenTitles[route.fullPath], route.fullPath).toBeDefined();
    // And no title for a path the table no longer has.
    expect(Object.keys(screenTitles).filter((path) => !screens.some((route) => route.fullPath === path))).toEqual([]);
    await activateLocale('es');
    const spanish = Object.values(screenTitles).map((title) => i18n._(title));
    await activateLocale('en');
    const english = Object.values(screenTitles).map((title) => i18n._(title));
    expect(spanish.filter((text, index) => text === english[index] && !/^(Manage )?(Prime|SNAPback)$/.test(english[index]!))).toEqual([]);
  });

  it('a title a screen gives itself lasts while any screen that gave it is up', () => {
    const shown = renderHook(() => useShownOwnTitle());
    const first = renderHook(() => useOwnTitle(errorTitle));
    const second = renderHook(() => useOwnTitle(errorTitle));
    expect(shown.result.current).toBe(errorTitle);
    first.unmount();
    expect(shown.result.current, 'the other screen is still up').toBe(errorTitle);
    second.unmount();
    expect(shown.result.current).toBeNull();
  });

  it('follows the screen and the language, and names the not-found page', async () => {
    const app = await renderApp('/signin', signedOut);
    await waitFor(() => expect(document.title).toBe('Sign in · Providers card'));
    await app.router.navigate({ to: '/reset-password/{-$step}', params: { step: undefined } });
    await waitFor(() => expect(document.title).toBe('Reset your password · Providers card'));
    // What the language switch does (src/app/main.tsx): the catalogue changes, the screen follows.
    await act(() => activateLocale('es'));
    await waitFor(() => expect(document.title).toBe('Restablezca su contraseña · Tarjeta Providers'));
    await act(() => activateLocale('en'));
    await app.router.navigate({ href: '/no-such-screen' });
    await waitFor(() => expect(document.title).toBe('Page not found · Providers card'));
  });
});

describe('an address outside the route table', () => {
  it('shows the not-found screen inside the app, its heading focused, with a way home', async () => {
    const app = await renderApp('/definitely-not-a-route', active);
    const heading = await screen.findByRole('heading', { level: 1, name: "We can't find this page." });
    expect(document.activeElement).toBe(heading);
    expect(screen.getByText('The address may be mistyped, or this page may no longer exist.')).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Account and language' })).toBeTruthy();
    await app.user.click(screen.getByRole('link', { name: 'Go to home' }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/home'));
  });

  it('on a page nobody has tapped or typed on yet, leaves the focus where the page starts; once they have, the heading takes it', async () => {
    // jsdom has no user activation: the browser's, as it is before and after the first tap or key.
    const activation = { hasBeenActive: false };
    Object.defineProperty(navigator, 'userActivation', { value: activation, configurable: true });
    try {
      await renderApp('/definitely-not-a-route', active);
      await screen.findByRole('heading', { level: 1, name: "We can't find this page." });
      expect(document.activeElement).toBe(document.body);
      cleanup();

      activation.hasBeenActive = true;
      await renderApp('/definitely-not-a-route', active);
      expect(document.activeElement).toBe(await screen.findByRole('heading', { level: 1, name: "We can't find this page." }));
    } finally {
      delete (navigator as { userActivation?: unknown }).userActivation;
    }
  });

  it('says so in Spanish', async () => {
    await renderApp('/no-existe', { ...signedOut, locale: 'es' });
    expect(await screen.findByRole('heading', { level: 1, name: 'No encontramos esta página.' })).toBeTruthy();
    expect(screen.getByText('Es posible que la dirección web esté mal escrita o que esta página ya no exista.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Ir al inicio' })).toBeTruthy();
  });

  it('below a known route shows the same screen', async () => {
    const app = await renderApp('/transactions/nowhere', active);
    expect(await screen.findByRole('heading', { level: 1, name: "We can't find this page." })).toBeTruthy();
    expect(app.router.state.location.pathname).toBe('/transactions/nowhere');
  });

  it('is not logged as a route visit', async () => {
    const app = await renderApp('/definitely-not-a-route', active);
    await screen.findByRole('heading', { level: 1, name: "We can't find this page." });
    await app.router.navigate({ to: '/tax' });
    await screen.findByText('This screen is not available yet.');
    await app.services.analytics.flush();
    const visits = app.tracked.filter((event) => event.name === 'route.visit').map((event) => event.properties);
    expect(visits).toEqual([{ name: '/tax', params: {}, query: {}, previousRouteName: null }]);
  });
});

describe('a screen that fails to show', () => {
  /** A router whose one screen throws `error`, with the app's error screen (src/app/router.tsx). */
  async function failWith(error: Error, locale: 'en' | 'es' = 'en') {
    await activateLocale(locale);
    const rootRoute = createRootRoute({ component: Outlet });
    const failing = createRoute({
      getParentRoute: () => rootRoute,
      path: '/',
      component: () => {
        throw error;
      },
    });
    const home = createRoute({ getParentRoute: () => rootRoute, path: '/home' });
    const router = createRouter({
      routeTree: rootRoute.addChildren([failing, home]),
      history: createMemoryHistory({ initialEntries: ['/'] }),
      defaultErrorComponent: ErrorView,
    });
    render(
      <I18nProvider i18n={i18n}>
        <RouterProvider router={router} />
      </I18nProvider>,
    );
    await screen.findByRole('heading', { level: 1 });
    return screen.getByRole('region').textContent;
  }
  afterEach(async () => {
    vi.restoreAllMocks();
    await activateLocale('en');
  });

  it('a bug: "an unexpected error", in both languages', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await failWith(new Error("Cannot read properties of undefined (reading 'cards')"))).toBe(
      'Something went wrong.There was an unexpected error. Please try again.Try againGo to home',
    );
    cleanup();
    expect(await failWith(new Error('boom'), 'es')).toContain('Hubo un error inesperado.');
  });

  it("what it needed from the card API got no answer: the connection is what to check (Wi-Fi without internet says it is online)", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    noteServerAnswered(false);
    try {
      expect(await failWith(new Error('No statusCode'))).toContain("We couldn't open this screen. Check your connection and try again.");
    } finally {
      noteServerAnswered(true);
    }
    cleanup();
    expect(await failWith(new Error('No statusCode'))).toContain('There was an unexpected error. Please try again.');
  });

  it("is judged by its own call's answer, not by another call answered meanwhile", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    // The screen's call got no answer; the experiments call, on its way meanwhile, then got its 404.
    noteServerAnswered(true);
    expect(await failWith(new ApiUnavailableError('/home', null))).toContain("We couldn't open this screen. Check your connection and try again.");
    cleanup();
    // The screen's call was answered by a gateway's page (502, no statusCode): not the connection, though
    // another call got no answer meanwhile.
    noteServerAnswered(false);
    try {
      expect(await failWith(new ApiUnavailableError('/home', 502))).toContain('There was an unexpected error. Please try again.');
    } finally {
      noteServerAnswered(true);
    }
  });

  it('its code did not download: the connection is what to check, in both languages', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await failWith(new TypeError('Failed to fetch dynamically imported module: /assets/StatementsView-a1.js'))).toBe(
      "Something went wrong.We couldn't open this screen. Check your connection and try again.Try againGo to home",
    );
    cleanup();
    expect(await failWith(new Error('Unable to preload CSS for /assets/StatementsView-a1.css'), 'es')).toContain(
      'No pudimos abrir esta pantalla. Revise su conexión e inténtelo de nuevo.',
    );
  });
});

describe('a screen whose code did not download', () => {
  it("is told apart from a bug by each browser's words for a failed import, and Vite's for a stylesheet", () => {
    const failures = [
      'Failed to fetch dynamically imported module: https://card.example/assets/StatementsView-a1.js', // Chromium
      'error loading dynamically imported module: https://card.example/assets/StatementsView-a1.js', // Firefox
      'Importing a module script failed.', // Safari
      'Unable to preload CSS for https://card.example/assets/StatementsView-a1.css', // Vite
    ];
    for (const message of failures) expect(isDownloadFailure(new TypeError(message)), message).toBe(true);
    expect(isDownloadFailure(new TypeError("Cannot read properties of undefined (reading 'cards')"))).toBe(false);
    expect(isDownloadFailure('Unable to preload CSS')).toBe(false);
  });
});

describe('/register outside the companion app', () => {
  it('cancels the navigation: the screen, the address and the history stay', async () => {
    const app = await renderApp('/add-money?from=test', active);
    await screen.findByText('This screen is not available yet.');
    const entries = app.router.history.length;
    void app.router.navigate({ to: '/register/{-$step}', params: { step: undefined } });
    // Navigations commit in order: when /tax is shown, the one to /register was decided before it.
    await app.router.navigate({ to: '/tax' });
    expect(app.router.history.length).toBe(entries + 1);
    app.router.history.back();
    await waitFor(() => expect(app.router.state.location.href).toBe('/add-money?from=test'));
    expect(app.tracked.some((event) => event.properties.name === '/register/{-$step}')).toBe(false);
  });

  it('returns to the screen the user was on when the navigation was not cancelled first', async () => {
    const app = await renderApp('/add-money?from=test', active);
    await screen.findByText('This screen is not available yet.');
    await app.router.navigate({ to: '/register/{-$step}', params: { step: undefined }, ignoreBlocker: true });
    await waitFor(() => expect(app.router.state.location.href).toBe('/add-money?from=test'));
    expect(await screen.findByText('This screen is not available yet.')).toBeTruthy();
  });

  it('opened directly, goes home (nowhere to stay), where a signed-in user stays signed in', async () => {
    const app = await renderApp('/register/2', active);
    await answerHome(app, homeWith({}));
    expect(app.router.state.location.pathname).toBe('/home');
  });
});

describe('the keyboard focus on a new screen (WCAG 2.2 SC 2.4.3, src/app/AppShell.tsx)', () => {
  const title = () => screen.getByRole('heading', { level: 1 });

  it('stays where it is on the first screen; after a move, the new screen’s heading takes it, without scrolling', async () => {
    const app = await renderApp('/faq', signedOut);
    await screen.findByRole('heading', { level: 1 });
    expect(document.activeElement).toBe(document.body);

    const focus = vi.spyOn(HTMLElement.prototype, 'focus');
    await act(() => app.router.navigate({ to: '/customer-support' }));
    await waitFor(() => expect(document.activeElement).toBe(title()));
    expect(focus).toHaveBeenCalledWith({ preventScroll: true });
    focus.mockRestore();
  });

  it('is never taken from where it is: a control that stays up keeps it', async () => {
    const app = await renderApp('/faq', signedOut);
    await screen.findByRole('heading', { level: 1 });
    const language = screen.getByRole('button', { name: 'Español' });
    language.focus();
    await act(() => app.router.navigate({ to: '/customer-support' }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/customer-support'));
    await screen.findByRole('heading', { level: 1 });
    expect(document.activeElement).toBe(language);
    // Nor later: the focus dropped after that, and the screen changed, the heading does not take it.
    language.blur();
    await act(async () => void document.querySelector('main')!.append(document.createElement('p')));
    expect(document.activeElement).toBe(document.body);
  });
});
