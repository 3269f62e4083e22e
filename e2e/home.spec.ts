/**
 * Home opened cold (a reload, a link from the companion app): it asks for the account while its route
 * still waits for the experiment config, not a round trip later, and shows that answer. A snackbar on
 * home never covers the control that has focus.
 */
import { type APIRequestContext, expect, type Locator, type Page, test } from '@playwright/test';
import { focusRing } from './support/accessibility.ts';
import { HomePage } from './pages/home/HomePage.ts';
import { demoHome, signInViaApi } from './support/api.ts';
import { shown } from './support/catalog.ts';
import { seedStoredState } from './support/storage.ts';
import { dollars } from './support/text.ts';

test('a cold /home asks for the account while the experiment config is still on its way, and shows it', async ({ page, request }) => {
  const { accountOverview: overview } = await demoHome(request);
  const tokens = await signInViaApi(request);
  await seedStoredState(page, { accessToken: tokens.access, refreshToken: tokens.refresh, locale: 'en' });
  const homeCalls: string[] = [];
  let configHeld = false;
  page.on('request', (sent) => {
    if (new URL(sent.url()).pathname === '/api/v1/home') homeCalls.push(sent.method());
  });
  // The config's answer is held until the app has asked for the account: an app that asked only
  // after the config would never ask, and the check below would fail.
  await page.route((url) => url.pathname === '/api/v1/experiments', async (route) => {
    configHeld = true;
    await expect.poll(() => homeCalls.length, { message: 'GET /home asked for before the config answered', timeout: 60_000 }).toBeGreaterThan(0);
    await route.continue();
  });

  await page.goto('/home');
  await new HomePage(page).expectBalance(dollars(overview.balance, 'en'));
  expect(configHeld, 'the config call went through the hold').toBe(true);
  expect(homeCalls, 'one call: the screen showed the early answer').toEqual(['GET']);
  // React DOM loads with error stacks off (src/app/main.tsx withoutErrorStacks); the app's errors keep theirs.
  expect(await page.evaluate(() => typeof Error.stackTraceLimit), 'stack traces back on').toBe('number');

  // Refresh by keyboard: the button keeps the focus while home is asked again (aria-disabled, not
  // disabled), the answer held so the refreshing state is seen however fast the server is.
  let answer!: () => void;
  const held = new Promise<void>((resolve) => (answer = resolve));
  await page.route((url) => url.pathname === '/api/v1/home', async (route) => {
    await held;
    await route.continue();
  });
  const refresh = page.getByRole('button', { name: 'Refresh', exact: true });
  await refresh.focus();
  await page.keyboard.press('Enter');
  const refreshing = page.getByRole('button', { name: 'Refreshing…', exact: true });
  await expect(refreshing).toHaveAttribute('aria-disabled', 'true');
  await expect(refreshing).toBeFocused();
  answer();
  await expect(refresh).toBeEnabled();
  await expect(refresh).toBeFocused();
  expect(homeCalls).toEqual(['GET', 'GET']);
  // Its ring is seen on the balance's green (WCAG 1.4.11; the blue one was 1.3:1 there).
  expect((await focusRing(refresh)).contrast).toBeGreaterThanOrEqual(3);

  // Large text (a phone's font size at 200%): the money and card links stack in one column instead of
  // cutting their words in two ("Transfe / rir"), and an activity row's amount, and a card's status, go
  // under its description instead of squeezing it to a word a line. Two columns, beside, at the usual size.
  const links = page.getByRole('navigation', { name: 'Money and cards' }).getByRole('link');
  const columns = async () => new Set(await links.evaluateAll((all) => all.map((link) => Math.round(link.getBoundingClientRect().left)))).size;
  const row = page.locator('.activity-link').first();
  const cardRow = page.locator('.card-status').first().locator('..');
  const under = async (what: Locator, second: Locator) => {
    const [first, then] = await Promise.all([what.boundingBox(), second.boundingBox()]);
    return then!.y >= first!.y + first!.height - 1;
  };
  const amountUnder = () => under(row.locator('.activity-what'), row.locator('.amount'));
  const statusUnder = () => under(cardRow.locator('span').first(), cardRow.locator('.card-status'));
  await expect(row).toBeVisible();
  expect(await columns()).toBe(2);
  expect(await amountUnder()).toBe(false);
  expect(await statusUnder()).toBe(false);
  await page.evaluate(() => document.documentElement.style.setProperty('font-size', '200%'));
  await expect.poll(columns).toBe(1);
  expect(await amountUnder()).toBe(true);
  expect(await statusUnder()).toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});

/**
 * Home, signed in, on a page whose clock moves only when the test moves it: the snackbar goes after
 * 5 s of that clock, so it stays while the test looks, however slow the machine.
 */
async function homeOnStoppedClock(page: Page, request: APIRequestContext) {
  const tokens = await signInViaApi(request);
  await seedStoredState(page, { accessToken: tokens.access, refreshToken: tokens.refresh, locale: 'en' });
  await page.clock.install();
  const home = await HomePage.open(page);
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
  return { home, snackbar: page.locator('.snackbar') };
}

test('a snackbar is held while the focus is on its Dismiss or a pointer is over it, and goes 5 s after they leave (WCAG 2.2.1)', async ({ page, request }) => {
  const { home, snackbar } = await homeOnStoppedClock(page, request);
  const copy = home.screen.getByRole('button', { name: 'Copy account number' });
  await copy.click();
  await expect(snackbar).toHaveText('Account number copied.×');

  await snackbar.getByRole('button', { name: 'Dismiss' }).focus();
  await page.clock.runFor(60_000);
  await expect(snackbar).toHaveText('Account number copied.×');
  // Let go: its 5 s start again, whole.
  await copy.focus();
  await page.clock.runFor(4_900);
  await expect(snackbar).toBeVisible();
  await page.clock.runFor(200);
  await expect(snackbar).toHaveCount(0);

  await copy.click();
  await expect(snackbar).toHaveText('Account number copied.×');
  await snackbar.hover();
  await page.clock.runFor(60_000);
  await expect(snackbar).toBeVisible();
  await page.mouse.move(10, 10);
  await page.clock.runFor(5_100);
  await expect(snackbar).toHaveCount(0);
});

test("a snackbar never covers what focus reaches: a link under it, and home's last link, each focused while it shows, end above it, at 360 px and at 180 px; gone, it gives the focus back", async ({
  page,
  request,
}) => {
  const { home, snackbar } = await homeOnStoppedClock(page, request);

  const expectFocusedAboveSnackbar = async (link: Locator, what: string) => {
    await link.focus();
    await expect(link).toBeFocused();
    const [box, bar] = [(await link.boundingBox())!, (await snackbar.boundingBox())!];
    expect(box.y + box.height, `${what} ends above the snackbar`).toBeLessThanOrEqual(bar.y);
    expect(box.y, `${what} is on the screen`).toBeGreaterThanOrEqual(0);
  };
  /** Copies the account number; while the snackbar says how that went, home's links are focused. */
  const copyThenFocusLinks = async (shownHome: HomePage, said: string) => {
    await shownHome.screen.getByRole('button', { name: shown(shownHome.locale, 'Copy account number') }).click();
    await expect(snackbar).toHaveText(shown(shownHome.locale, said) + '×');
    // A link scrolled to just under the snackbar (on the screen, so focus has nothing to scroll but the room kept clear).
    const seeAll = shownHome.screen.getByRole('link', { name: shown(shownHome.locale, 'See all activity') });
    await seeAll.evaluate((link) => window.scrollBy(0, link.getBoundingClientRect().bottom - (window.innerHeight - 30)));
    const underneath = (await seeAll.boundingBox())!;
    expect(underneath.y, 'the link starts under the snackbar').toBeGreaterThan((await snackbar.boundingBox())!.y);
    await expectFocusedAboveSnackbar(seeAll, 'a link that was under it');
    // The page's last link: its end must scroll clear of the snackbar too.
    await expectFocusedAboveSnackbar(page.getByRole('main').getByRole('link').last(), "home's last link");
  };

  await copyThenFocusLinks(home, 'Account number copied.');
  // The snackbar comes after the page: Tab from its last link reaches Dismiss, whose ring is seen on
  // its dark grey (WCAG 1.4.11; the blue one was 2.7:1 there).
  const lastLink = page.getByRole('main').getByRole('link').last();
  await page.keyboard.press('Tab');
  const dismiss = snackbar.getByRole('button', { name: 'Dismiss' });
  await expect(dismiss).toBeFocused();
  expect((await focusRing(dismiss)).contrast).toBeGreaterThanOrEqual(3);
  // Dismissed, it takes its button away: the focus goes back to where it came from, not the page's start.
  await page.keyboard.press('Enter');
  await expect(snackbar).toHaveCount(0);
  await expect(lastLink).toBeFocused();

  // A 360 × 740 phone at 200% zoom (Chrome's default zoom setting) lays the page out 180 px wide: the
  // failed copy's Spanish text takes five lines, and the snackbar is taller than the 8rem kept before.
  await page.setViewportSize({ width: 180, height: 370 });
  await home.languageSwitch.click();
  const spanishHome = new HomePage(page, 'es');
  await spanishHome.expectShown();
  await page.evaluate(() => {
    navigator.clipboard.writeText = () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError'));
  });
  await copyThenFocusLinks(spanishHome, "We couldn't copy the account number.");
  // Its time stands still while Dismiss has the focus; dismissed, the focus goes back.
  await page.keyboard.press('Tab');
  await expect(snackbar.getByRole('button', { name: shown('es', 'Dismiss') })).toBeFocused();
  await page.clock.runFor(60_000);
  await expect(snackbar).toHaveText(shown('es', "We couldn't copy the account number.") + '×');
  await page.keyboard.press('Enter');
  await expect(snackbar).toHaveCount(0);
  await expect(lastLink).toBeFocused();
});
