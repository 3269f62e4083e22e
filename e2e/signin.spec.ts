/** Sign-in: success, wrong password, and the guard that remembers where the user was going. */
import { expect, type Page, test } from '@playwright/test';
import { HomePage } from './pages/home/HomePage.ts';
import { SignInPage } from './pages/session/SignInPage.ts';
import { demo, demoHome } from './support/api.ts';
import { doubleTapWhileAnswerHeld, isOver } from './support/network.ts';
import { activityRowPattern, dollars, englishShortDate } from './support/text.ts';

test('signing in shows the seeded balance, the cards and recent activity', async ({ page, request }) => {
  const { accountOverview: overview } = await demoHome(request);
  const virtualCard = overview.cards.find((card) => card.type === 'VIRTUAL');
  expect(virtualCard, 'the demo cardholder has a virtual card').toBeDefined();
  expect(overview.transactions.length, 'the demo cardholder has activity').toBeGreaterThan(0);

  // Home's amounts and dates are written out by our own code (src/shared/format/): a first Intl object
  // would load ICU's locale data in one long main-thread task. Every Intl constructor is watched.
  await page.addInitScript(() => {
    const built: string[] = [];
    Object.defineProperty(window, '__intlBuilt', { value: built });
    const intl = Intl as unknown as Record<string, new (...args: unknown[]) => object>;
    for (const name of ['NumberFormat', 'DateTimeFormat', 'PluralRules', 'RelativeTimeFormat', 'ListFormat', 'Collator']) {
      intl[name] = new Proxy(intl[name]!, { construct: (target, args) => (built.push(name), Reflect.construct(target, args)) });
    }
  });
  const signIn = await SignInPage.open(page);
  const home = await signIn.signIn();

  await home.expectBalance(dollars(overview.balance, 'en'));
  await expect(home.cardsHeading).toBeVisible();
  await expect(home.cardRow('VIRTUAL', virtualCard!.lastFour!)).toBeVisible();
  await expect(home.activityHeading).toBeVisible();
  // Every transaction is listed, newest first, each with its signed amount; dates are in US English.
  await expect(home.rows).toHaveCount(overview.cards.length + overview.transactions.length);
  await expect(home.rows).toContainText(overview.transactions.slice(0, 5).map((t) => activityRowPattern(t, 'en')));
  await expect(home.row(overview.transactions[0]!.counterparty!).first()).toContainText(englishShortDate);
  expect(await page.evaluate(() => (window as unknown as { __intlBuilt: string[] }).__intlBuilt)).toEqual([]);
});

test('a wrong password shows the error and stays on sign-in', async ({ page }) => {
  const signIn = await SignInPage.open(page);
  // Sent with Enter from the email field, which keeps the focus: its error is said as an alert. Sent
  // with the button, the focus moves to the field in error, which says it (not an alert as well).
  await signIn.email.fill('maria@');
  await signIn.email.press('Enter');
  await expect(page.getByRole('main').getByRole('alert')).toHaveText('Please enter a valid email address.');
  await expect(signIn.email).toBeFocused();
  await signIn.submitButton.click();
  await expect(signIn.email).toBeFocused();
  await expect(page.getByRole('main').getByRole('alert')).toHaveCount(0);
  await expect(signIn.email).toHaveAccessibleDescription('Please enter a valid email address.');
  await signIn.signInRejected(demo.email, 'not-the-password');

  await expect(signIn.problem).toHaveText(
    'Sorry, the email address or password you entered is incorrect. Please try again.',
  );
  await expect(page).toHaveURL((url) => url.pathname === '/signin');
  await expect(signIn.email).toHaveValue(demo.email);
  // Focus goes to the message, never to the page; said by the focus, not also as an alert.
  await expect(signIn.problem).toBeFocused();
  await expect(page.getByRole('main').getByRole('alert')).toHaveCount(0);
  // "Show password" lets the cardholder check what they typed.
  await signIn.password.fill('not-the-pasword');
  await page.getByRole('button', { name: 'Show password', exact: true }).click();
  await expect(signIn.password).toHaveAttribute('type', 'text');
  await expect(page.getByRole('button', { name: 'Show password', exact: true })).toHaveAttribute('aria-pressed', 'true');
});

test('a double tap on Sign in after a refusal sends one sign-in and stays on the form, though the links moved under the thumb', async ({ page }) => {
  const signIn = await SignInPage.open(page);
  await signIn.signInRejected(demo.email, 'not-the-password');
  await signIn.password.fill(demo.password);

  const { spot, release } = await doubleTapWhileAnswerHeld(page, signIn.submitButton, '/api/v1/sign-in');
  // The message went with the first tap and the link moved to where the thumb was: the second tap is on it.
  expect(await isOver(page.locator('a[href^="/reset-password"]'), spot), 'the second tap lands on Forgot your password?').toBe(true);
  await expect(page).toHaveURL((url) => url.pathname === '/signin');
  release();
  await new HomePage(page).expectShown();
});

test('opening home signed out asks to sign in, then continues to home', async ({ page }) => {
  await page.goto('/home');

  await expect(page).toHaveURL((url) => url.pathname === '/signin');
  expect(new URL(page.url()).search).toBe('?redirect=%2Fhome');
  const signIn = new SignInPage(page);
  await signIn.expectShown();

  const home = await signIn.signIn();
  await expect(home.balanceHeading).toBeVisible();
});

test('a deeper screen opened signed out is remembered through sign-in', async ({ page }) => {
  await page.goto('/statements');

  await expect(page).toHaveURL((url) => url.pathname === '/signin' && url.searchParams.get('redirect') === '/statements');
  const signIn = new SignInPage(page);
  await signIn.expectShown();
  await signIn.submit(demo.email, demo.password);

  await expect(page).toHaveURL((url) => url.pathname === '/statements' && url.search === '');
  await expect(page.getByRole('heading', { level: 1, name: 'Monthly statements' })).toBeVisible();
  await expect(new HomePage(page).balanceHeading).toHaveCount(0);
});

test('the splash shows the brand at once, and a spinner after 100 ms, as every spinner', async ({ page }) => {
  const release = await holdEntryScript(page);
  await page.goto('/signin', { waitUntil: 'commit' });
  const splash = page.locator('#loader-overlay');
  const spinner = splash.locator('.spinner');
  await expect(splash.locator('.splash-brand')).toBeVisible();

  // The spinner's timeline, paused and set (no waiting on the clock): hidden for the first 100 ms, then
  // shown and turning. A spinner turning from the first frame kept the machine drawing frames through
  // the whole start (docs/performance.md).
  const at = (ms: number) =>
    spinner.evaluate((element, time) => {
      for (const animation of element.getAnimations()) {
        animation.pause();
        animation.currentTime = time;
      }
      return getComputedStyle(element).visibility;
    }, ms);
  expect(await at(0)).toBe('hidden');
  expect(await at(99)).toBe('hidden');
  expect(await at(100)).toBe('visible');
  const turning = await spinner.evaluate((element) =>
    element.getAnimations().map((animation) => (animation as CSSAnimation).animationName),
  );
  expect(turning).toContain('spin');

  release();
  await expect(splash).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});

test.describe('in a browser that prefers Spanish', () => {
  test.use({ locale: 'es-MX' });

  test('the splash is labelled in Spanish before the app starts, and the first screen is in Spanish', async ({ page }) => {
    const release = await holdEntryScript(page);
    await page.goto('/signin', { waitUntil: 'commit' });
    await expect(page.getByRole('status', { name: 'Cargando' })).toBeAttached();
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await expect(page).toHaveTitle('Tarjeta Providers');

    release();
    await expect(page.locator('#loader-overlay')).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 1, name: 'Iniciar sesión' })).toBeVisible();
  });
});

test('with reduced motion asked for, the splash spinner turns three times slower', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const release = await holdEntryScript(page);
  await page.goto('/signin', { waitUntil: 'commit' });
  const spinner = page.locator('#loader-overlay .spinner');
  const timings = await spinner.evaluate((element) =>
    element.getAnimations().map((animation) => ({
      name: (animation as CSSAnimation).animationName,
      delay: animation.effect?.getTiming().delay,
      duration: animation.effect?.getTiming().duration,
    })),
  );
  expect(timings).toContainEqual({ name: 'spin', delay: 100, duration: 2400 });
  release();
  await expect(page.locator('#loader-overlay')).toHaveCount(0);
});

/** Holds the app's entry script back until the returned function is called: the splash stays up meanwhile. */
async function holdEntryScript(page: Page): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/assets/index-*.js', async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

test("the email typed on sign-in goes to the password reset and comes back with the browser's Back (WCAG 2.2 SC 3.3.7)", async ({ page }) => {
  const signIn = await SignInPage.open(page);
  await signIn.email.fill('ana.reyes@providers.test');
  await page.getByRole('link', { name: 'Forgot your password?', exact: true }).click();
  const resetEmail = page.getByRole('main').getByLabel('Email', { exact: true });
  await expect(page.getByRole('heading', { name: 'Reset your password', exact: true })).toBeVisible();
  await expect(resetEmail).toHaveValue('ana.reyes@providers.test');
  await page.goBack();
  await expect(page.getByRole('heading', { name: 'Sign in', level: 1 })).toBeVisible();
  await expect(signIn.email).toHaveValue('ana.reyes@providers.test');
  // And typed again on the reset, "Back to sign in" takes that one back.
  await page.getByRole('link', { name: 'Forgot your password?', exact: true }).click();
  await resetEmail.fill('ana.r@providers.test');
  await page.getByRole('link', { name: 'Back to sign in', exact: true }).click();
  await expect(signIn.email).toHaveValue('ana.r@providers.test');
});
