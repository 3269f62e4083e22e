/** Sign-out ends the session; the browser's back button must not bring account data back. */
import { expect, type Page } from '@playwright/test';
import { test } from './support/snackbar.ts';
import { ActivityPage } from './pages/activity/ActivityPage.ts';
import { HomePage } from './pages/home/HomePage.ts';
import { SignInPage } from './pages/session/SignInPage.ts';
import { readStoredState } from './support/storage.ts';
import { routeOnce } from './support/network.ts';

/** Signs in, then builds the history home (1st document) → statements (2nd) → home (in-app link), and signs out. */
async function signInBrowseAndSignOut(page: Page, beforeSignOut?: () => Promise<void>): Promise<SignInPage> {
  const signIn = await SignInPage.open(page);
  await signIn.signIn();
  await page.goto('/statements');
  await page.getByRole('main').getByRole('link', { name: 'Back to home' }).click();
  const home = new HomePage(page);
  await home.expectShown();
  // The pressed link went with the statements: the new screen's heading has the keyboard's focus.
  await expect(home.title).toBeFocused();
  await beforeSignOut?.();
  return home.signOut();
}

/** The stored state keeps no tokens (sign-out cleared them). */
async function expectNoTokensStored(page: Page) {
  await expect
    .poll(async () => {
      const stored = await readStoredState(page);
      return [stored?.accessToken ?? null, stored?.refreshToken ?? null];
    }, { message: 'no tokens are kept after sign-out' })
    .toEqual([null, null]);
}

/** After going back: an auth screen remembering `remembered`, and no account data anywhere. */
async function expectNoAccountAfterBack(page: Page, remembered: string) {
  await expect(page).toHaveURL(
    (url) => (url.pathname === '/signin' || url.pathname === '/unlock') && url.searchParams.get('redirect') === remembered,
  );
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(new HomePage(page).balanceHeading).toHaveCount(0);
  await expect(page.getByRole('main')).not.toContainText('$');
}

test('signing out confirms it, and going back does not show the account', async ({ page }) => {
  // The message goes by itself after 5 s: the page's clock stops before it shows and moves only as the
  // test moves it, so however slow the machine, only the swipe below can take it away.
  await page.clock.install();
  const signedOut = await signInBrowseAndSignOut(page, async () => page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000));
  // A second of the page's time for what signing out leaves to timers (the state saved without its tokens).
  await page.clock.runFor(1000);
  await expect(signedOut.status('You have signed out.')).toBeVisible();
  await expect(signedOut.signOutButton).toHaveCount(0);
  // The focus starts at the sign-in screen's heading, as on every screen (it was left on the page).
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeFocused();
  await expectNoTokensStored(page);

  // A finger swiping the message sideways over a fifth of the screen's width (spec §4) dismisses it:
  // real touch events, so the browser's own panning would cancel the swipe if the snackbar let it.
  const snackbar = page.locator('.snackbar');
  const box = (await snackbar.boundingBox())!;
  const y = box.y + box.height / 2;
  const touch = await page.context().newCDPSession(page);
  await touch.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: box.x + 20, y }] });
  for (const x of [60, 100, 140, 180]) {
    await touch.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: box.x + x, y }] });
  }
  await touch.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await expect(signedOut.status('You have signed out.')).toHaveCount(0);
  await expect(snackbar).toHaveCount(0);
  await page.clock.resume();

  // Back within the app (same document): the statements entry must not open.
  await page.goBack();
  await expectNoAccountAfterBack(page, '/statements');

  // Back to the first document, which showed the balance before.
  await page.goBack();
  await expectNoAccountAfterBack(page, '/home');
});

test('signing out with no answer from the server (Wi-Fi without internet) signs out on the phone at once; the server is told when it can be', async ({ context, page, request }) => {
  const home = await (await SignInPage.open(page)).signIn();
  const { refreshToken } = (await readStoredState(page))!;
  const lastKnown = () => page.evaluate(() => localStorage.getItem('providers-card:last-known'));
  await expect.poll(lastKnown, { message: 'home kept its last-known copy' }).not.toBeNull();
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const told = page.waitForRequest((sent) => new URL(sent.url()).pathname === '/api/v1/sign-out');
  await page.route('**/api/v1/sign-out', async (route) => {
    await held;
    await route.continue();
  });

  const signedOut = await home.signOut();
  await signedOut.expectShown();
  await expectNoTokensStored(page);
  expect(await lastKnown(), 'the last-known copy is gone').toBeNull();
  // A tab opened now finds no session.
  const other = await context.newPage();
  await other.goto('/home');
  await new SignInPage(other).expectShown();

  // The server was asked with the session's refresh token; once its answer comes, the token is dead there too.
  expect((await told).headers().authorization).toBe(`Bearer ${refreshToken}`);
  release();
  await expect
    .poll(async () => (await request.post('/api/v1/refresh-tokens', { headers: { Authorization: `Bearer ${refreshToken}` }, data: { unlockCode: '2580' } })).status())
    .toBe(401);
});

test('a sign-out the server never hears (the connection drops) still signs out, and the next sign-in works', async ({ page }) => {
  const home = await (await SignInPage.open(page)).signIn();
  await routeOnce(page, '**/api/v1/sign-out', (route) => route.abort('internetdisconnected'));
  const signedOut = await home.signOut();
  await signedOut.expectShown();
  await expectNoTokensStored(page);
  await signedOut.signIn();
});

test('signing out in one tab signs the other tab out too, and it saves no tokens back', async ({ context }) => {
  // A tab left on sign-in from before: its changes (here its language) sign nobody out.
  const before = await context.newPage();
  await SignInPage.open(before);
  const first = await context.newPage();
  await (await SignInPage.open(first)).signIn();
  await before.getByRole('button', { name: 'Español' }).click();
  await expect(before.locator('html')).toHaveAttribute('lang', 'es');
  await first.getByRole('main').getByRole('link', { name: 'See all activity' }).click();
  await new ActivityPage(first).expectShown();
  await first.goBack();
  await new HomePage(first).expectShown();
  // Nor does it overwrite the stored session: a tab opened now is signed in.
  const second = await context.newPage();
  await second.goto('/home');
  const secondHome = new HomePage(second, 'es');
  await secondHome.expectShown();

  await new HomePage(first).signOut();
  const signedOut = new SignInPage(second, 'es');
  await signedOut.expectShown();
  await signedOut.expectSnackbarSaid('You have signed out.');
  await expect(secondHome.balanceHeading).toHaveCount(0);
  for (const page of [first, second]) await expectNoTokensStored(page);
});

test('a tab signed out by another does not pass the sign-out on (a tab thawed late would sign out a new session)', async ({ context }) => {
  const first = await context.newPage();
  const home = await (await SignInPage.open(first)).signIn();
  const second = await context.newPage();
  await second.goto('/home');
  await new HomePage(second).expectShown();
  // A third page hears every sign-out message.
  const listener = await context.newPage();
  await listener.goto('/signin');
  await listener.evaluate(() => {
    const heard: unknown[] = ((window as unknown as { heard: unknown[] }).heard = []);
    new BroadcastChannel('providers-card:sign-out').onmessage = ({ data }) => void heard.push(data);
  });

  await home.signOut();
  await new SignInPage(second).expectShown();
  // A marker from the second tab, after its sign-out: one sender's messages arrive in order, so any it
  // passed on has arrived by the time the marker has.
  await second.evaluate(() => new BroadcastChannel('providers-card:sign-out').postMessage('marker'));
  await expect.poll(() => listener.evaluate(() => (window as unknown as { heard: unknown[] }).heard.at(-1))).toBe('marker');
  expect(await listener.evaluate(() => (window as unknown as { heard: unknown[] }).heard.length), "the first tab's message, and the marker").toBe(2);
});

/**
 * Playwright launches Chromium with --disable-back-forward-cache; real Chrome, Safari and Firefox
 * keep recent pages in the back-forward cache. Here the first document, still signed in, is
 * restored as it was; the app must reload it from the stored (signed-out) state, never show the balance.
 */
test('after sign-out, back does not restore the account from the back-forward cache', async ({ playwright }, testInfo) => {
  const use = testInfo.project.use;
  const browser = await playwright.chromium.launch({
    ...use.launchOptions,
    ignoreDefaultArgs: ['--disable-back-forward-cache'],
  });
  try {
    const context = await browser.newContext({
      baseURL: use.baseURL,
      viewport: use.viewport,
      isMobile: use.isMobile,
      hasTouch: use.hasTouch,
      locale: use.locale,
      timezoneId: use.timezoneId,
    });
    const page = await context.newPage();
    await signInBrowseAndSignOut(page);

    await page.goBack();
    await expectNoAccountAfterBack(page, '/statements');
    // A page restored from the cache fires no load event: wait for the commit only.
    await page.goBack({ waitUntil: 'commit' });
    await expectNoAccountAfterBack(page, '/home');
  } finally {
    await browser.close();
  }
});
