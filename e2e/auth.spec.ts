/**
 * Account security through the real server at phone size: sign-in with a texted code (read from the
 * sandbox outbox), unlock attempts down to the lockout and recovery by resetting the unlock code,
 * and a full password reset; axe on each new screen, one flow in Spanish.
 */
import { expect, test, type Page } from '@playwright/test';
import { textedCode } from './pages/identity/RegisterPage.ts';
import { expectAccessible } from './support/accessibility.ts';
import { openAccountViaApi, setPasswordViaApi, signInViaApiAs } from './support/accounts.ts';
import { shown, type Locale } from './support/catalog.ts';
import { readStoredState, seedStoredState } from './support/storage.ts';
import { doubleTapWhileAnswerHeld, isOver, loseAnswerOnce, routeOnce } from './support/network.ts';
import { UnlockPage } from './pages/session/UnlockPage.ts';
import { demo } from './support/api.ts';
import { HomePage } from './pages/home/HomePage.ts';

const jordan = { email: 'jordan@providers.test', password: 'Providers2026', phone: '5592017788' };

async function fillCode(page: Page, locale: Locale, code: string) {
  const boxes = page.getByRole('group', { name: shown(locale, 'Texted code') }).getByRole('textbox');
  for (const [index, digit] of [...code].entries()) await boxes.nth(index).fill(digit);
}

// Both runs sign the same sandbox cardholder in, and a new code replaces the last one: one at a time.
test.describe('signing in with a texted code', () => {
  test.describe.configure({ mode: 'serial' });
  for (const locale of ['en', 'es'] as const) {
    test(`a wrong code, then the right one (${locale})`, async ({ page, request }) => {
      const t = (source: string) => shown(locale, source);
      await seedStoredState(page, { accessToken: null, refreshToken: null, locale });
      await page.goto('/signin');
      await page.getByLabel(t('Email'), { exact: true }).fill(jordan.email);
      await page.getByLabel(t('Password'), { exact: true }).fill(jordan.password);
      await page.getByRole('main').getByRole('button', { name: t('Sign in'), exact: true }).click();

      await expect(page.getByRole('heading', { name: t('Enter your code'), exact: true })).toBeVisible();
      await expectAccessible(page);
      // At 360 px the number broke at its hyphen ("(XXX) XXX-" above "7788"): now it is one line.
      const number = page.getByText('(XXX) XXX-7788', { exact: true });
      expect(await number.evaluate((element) => element.getClientRects().length)).toBe(1);
      const first = await textedCode(request, jordan.phone);
      await fillCode(page, locale, first === '000000' ? '111111' : '000000');
      // Sent with Enter in the last box, the call held: the box keeps the focus, read-only meanwhile.
      let answer!: () => void;
      const held = new Promise<void>((resolve) => (answer = resolve));
      const isSignIn = (url: URL) => url.pathname === '/api/v1/sign-in';
      await page.route(isSignIn, async (route) => {
        await held;
        await route.continue();
      });
      const lastBox = page.getByRole('group', { name: t('Texted code') }).getByRole('textbox').last();
      await lastBox.press('Enter');
      await expect(page.getByRole('button', { name: t('Verifying…'), exact: true })).toBeVisible();
      await expect(lastBox).toBeFocused();
      await expect(lastBox).toHaveAttribute('readonly', '');
      answer();
      await expect(page.getByText(t("This isn't the right code."))).toBeVisible();
      await page.unroute(isSignIn);

      // A new code, asked for by keyboard: the link, unavailable during the call, lets the focus go to
      // the page's start. With no answer the error modal opens; once it closes the first box has the
      // focus, the form saying what happened. Sent: the form says so, and the first box has the focus.
      const firstBox = page.getByRole('group', { name: t('Texted code') }).getByRole('textbox').first();
      const sendNewCode = page.getByRole('button', { name: t('Send a new code'), exact: true });
      // Its words line up with the links under the form (a button's padding indented them).
      const textLeft = (element: HTMLElement) => {
        const range = document.createRange();
        range.selectNodeContents(element);
        return Math.round(range.getBoundingClientRect().left);
      };
      expect(await sendNewCode.evaluate(textLeft)).toBe(await page.getByRole('main').getByRole('heading', { level: 1 }).evaluate(textLeft));
      await routeOnce(page, isSignIn, (route) => route.abort());
      await sendNewCode.focus();
      await page.keyboard.press('Enter');
      // No answer came: the modal and the form say the connection is what to check, not "an unexpected error".
      const errorModal = page.getByRole('dialog', { name: t('Sorry, something went wrong.') });
      await expect(errorModal).toContainText(t("We couldn't reach Providers. Check your connection and try again."));
      await errorModal.getByRole('button', { name: t('OK') }).press('Enter');
      await expect(errorModal).toBeHidden();
      await expect(firstBox).toBeFocused();
      await expect(page.getByRole('alert').filter({ hasText: t("We couldn't reach Providers. Check your connection and try again.") })).toBeVisible();
      await sendNewCode.focus();
      await page.keyboard.press('Enter');
      await expect(page.getByRole('status').filter({ hasText: t('We sent you a new code.') })).toBeVisible();
      await expect(firstBox).toBeFocused();
      let code = '';
      await expect.poll(async () => (code = await textedCode(request, jordan.phone))).not.toBe(first);
      await fillCode(page, locale, code);
      await page.getByRole('button', { name: t('Verify'), exact: true }).click();
      await expect(page.getByRole('heading', { name: t('Available balance'), exact: true })).toBeVisible();
      await expect(page).toHaveURL((url) => url.pathname === '/home');
    });
  }

  // The code step is a file of its own (sign-in's first screen loads without it), asked for from the
  // first thing typed: its download held, the form stays as sent, busy; not downloaded, the screen says
  // to check the connection, in place (not the app's error screen).
  test("the code step's file: held, the sent form waits for it; not downloaded, the screen says so", async ({ page }) => {
    // Once sign-in's first screen is shown, every script asked for is the code step's or one it needs.
    const scripts = '**/assets/*.js';
    const openSignIn = async () => {
      await page.goto('/signin');
      await expect(page.getByLabel('Password', { exact: true })).toBeVisible();
    };
    const signIn = async () => {
      await page.getByLabel('Email', { exact: true }).fill(jordan.email);
      await page.getByLabel('Password', { exact: true }).fill(jordan.password);
      const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/v1/sign-in');
      await page.getByRole('main').getByRole('button', { name: 'Sign in', exact: true }).click();
      // A code is texted (105), or, after the texts of the tests before, too many were (201): the code step says either.
      expect([105, 201], 'the server answers with the code step').toContain(((await (await answered).json()) as { statusCode: number }).statusCode);
    };
    await seedStoredState(page, { accessToken: null, refreshToken: null, locale: 'en' });
    await openSignIn();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(scripts, async (route) => {
      await held;
      await route.continue();
    });
    await signIn();
    await expect(page.getByRole('main').getByRole('button', { name: 'Signing in…', exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Enter your code', exact: true })).toHaveCount(0);
    release();
    await expect(page.getByRole('heading', { name: 'Enter your code', exact: true })).toBeFocused();
    await page.unroute(scripts);

    // A new page (a browser keeps a module it loaded for the page's life), and the file not downloaded.
    await openSignIn();
    await page.route(scripts, (route) => route.abort('internetdisconnected'));
    await signIn();
    await expect(page.getByText("We couldn't open this screen. Check your connection and try again.")).toBeVisible();
    // In place: sign-in's own step (its heading's id), not the app's error screen with its way home.
    await expect(page.locator('#signin-code-title')).toBeFocused();
    await expect(page.getByRole('heading', { name: 'Something went wrong.', exact: true })).toBeFocused();
    await expect(page.getByRole('button', { name: 'Try again', exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Go to home', exact: true })).toHaveCount(0);
    await page.unroute(scripts);
    await expectAccessible(page);

    // A stalled connection: the file neither arrives nor fails. After 20 s with a code asked for, the
    // screen says so rather than "Signing in…" for ever (the page's clock moved on, not the test's).
    await page.clock.install();
    await openSignIn();
    await page.route(scripts, () => new Promise<void>(() => {}));
    await signIn();
    await expect(page.getByRole('main').getByRole('button', { name: 'Signing in…', exact: true })).toBeVisible();
    await page.clock.runFor(20_000);
    await expect(page.getByText("We couldn't open this screen. Check your connection and try again.")).toBeVisible();
    await expect(page.locator('#signin-code-title')).toBeFocused();
    await page.unroute(scripts);
  });

  test("a sign-in that needs no code goes on though the code step's file did not download", async ({ page }) => {
    await seedStoredState(page, { accessToken: null, refreshToken: null, locale: 'en' });
    await page.goto('/signin');
    await expect(page.getByLabel('Password', { exact: true })).toBeVisible();
    // The first thing typed asks for the code step's file: not downloaded.
    let aborted = 0;
    const scripts = '**/assets/*.js';
    await page.route(scripts, async (route) => {
      aborted += 1;
      await route.abort('internetdisconnected');
    });
    await page.getByLabel('Email', { exact: true }).fill(demo.email);
    await expect.poll(() => aborted).toBeGreaterThan(0);
    await page.unroute(scripts);
    await page.getByLabel('Password', { exact: true }).fill(demo.password);
    await page.getByRole('main').getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL((url) => url.pathname === '/home');
    await expect(page.getByRole('heading', { name: 'Available balance', exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Something went wrong.' })).toHaveCount(0);
  });
});

test('wrong unlock codes count down to a lockout; sign-in then asks for a new unlock code through the SSN', async ({ page, request }) => {
  const { applicant } = await openAccountViaApi(request);
  // Setting a password ends every earlier session, so the session to lock comes after it.
  await setPasswordViaApi(request, applicant, 'Opening-Day-2026');
  const tokens = await signInViaApiAs(request, applicant.email, 'Opening-Day-2026');
  await seedStoredState(page, { accessToken: null, refreshToken: tokens.refresh, locale: 'en' });
  await page.goto('/unlock');

  const code = page.getByLabel('Unlock code', { exact: true });
  const unlock = page.getByRole('main').getByRole('button', { name: 'Unlock', exact: true });
  for (const left of [4, 3, 2]) {
    await code.fill('9999');
    await unlock.click();
    await expect(page.getByText(`You have ${left} more unlock attempts.`)).toBeVisible();
  }
  // Sent with the phone's Enter from the field, which keeps the focus: the count is said all the same.
  await code.fill('9999');
  await code.press('Enter');
  await expect(page.getByRole('main').getByRole('alert').filter({ hasText: 'You have 1 more unlock attempt.' })).toBeAttached();
  await expect(code).toBeFocused();
  await expect(page.locator('#unlock-code-error')).toContainText('You have 1 more unlock attempt.');
  await expectAccessible(page);
  // The way out before the last try: the reset, by SSN.
  await expect(page.getByRole('link', { name: 'Forgot your unlock code?', exact: true })).toHaveAttribute('href', '/reset-unlock-code');
  await code.fill('9999');
  await unlock.click();

  // Locked out: sign in again, then the unlock code must be reset; sign-in says why (WCAG 2.2 SC 3.3.1).
  await expect(page.getByLabel('Password', { exact: true })).toBeVisible();
  await expect(page.getByText('You entered a wrong unlock code too many times. Please sign in with your password, then choose a new unlock code.')).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel('Email', { exact: true }).fill(applicant.email);
  await page.getByLabel('Password', { exact: true }).fill('Opening-Day-2026');
  await page.getByRole('main').getByRole('button', { name: 'Sign in', exact: true }).click();

  await expect(page).toHaveURL((url) => url.pathname.startsWith('/reset-unlock-code'));
  await expect(page.getByRole('heading', { name: 'Verify your identity', exact: true })).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel('Social Security number', { exact: true }).fill(applicant.ssn);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();

  await expect(page.getByRole('heading', { name: 'Choose a new unlock code', exact: true })).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel('New unlock code', { exact: true }).fill('3691');
  await page.getByLabel('Confirm new unlock code', { exact: true }).fill('3691');
  await page.getByRole('button', { name: 'Save unlock code', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Unlock code changed', exact: true })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Available balance', exact: true })).toBeVisible();
});

test('a double tap on Unlock after a wrong code sends one unlock and stays on the form, though the link moved under the thumb', async ({ page, request }) => {
  const { applicant } = await openAccountViaApi(request);
  await setPasswordViaApi(request, applicant, 'Opening-Day-2026');
  const tokens = await signInViaApiAs(request, applicant.email, 'Opening-Day-2026');
  await seedStoredState(page, { accessToken: null, refreshToken: tokens.refresh, locale: 'en' });
  await page.goto('/unlock');
  const unlock = await UnlockPage.expectOn(page);
  await unlock.code.fill('9999');
  await unlock.submitButton.click();
  await expect(unlock.codeProblem).toContainText('You have 4 more unlock attempts.');

  await unlock.code.fill(applicant.unlockCode);
  const { spot, release } = await doubleTapWhileAnswerHeld(page, unlock.submitButton, '/api/v1/refresh-tokens');
  expect(await isOver(page.locator('a[href^="/reset-unlock-code"]'), spot), 'the second tap lands on Forgot your unlock code?').toBe(true);
  await expect(page).toHaveURL((url) => url.pathname === '/unlock');
  release();
  await new HomePage(page).expectShown();
});

test('an unlock-code reset whose answer was lost is saved again as done, not as an expired identity check', async ({ page, request }) => {
  const { applicant, tokens } = await openAccountViaApi(request);
  await seedStoredState(page, { accessToken: null, refreshToken: tokens.refresh, locale: 'en' });
  await page.goto('/reset-unlock-code');
  await page.getByLabel('Social Security number', { exact: true }).fill(applicant.ssn);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Choose a new unlock code', exact: true })).toBeVisible();

  // The server resets the code; its answer never reaches the phone.
  await loseAnswerOnce(page, '/api/v1/reset-unlock-code');
  await page.getByLabel('New unlock code', { exact: true }).fill('3691');
  await page.getByLabel('Confirm new unlock code', { exact: true }).fill('3691');
  const save = page.getByRole('button', { name: 'Save unlock code', exact: true });
  await save.click();
  await page.getByRole('dialog', { name: 'Sorry, something went wrong.' }).getByRole('button', { name: 'OK' }).click();
  await expect(page.getByLabel('New unlock code', { exact: true })).toHaveValue('3691');
  // Saved again: answered as done, with the session the lost answer carried.
  await save.click();
  await expect(page.getByRole('heading', { name: 'Unlock code changed', exact: true })).toBeVisible();
  await expect(page.getByText('Your identity check has expired.')).toHaveCount(0);
  const stored = await readStoredState(page);
  const unlocked = await request.post('/api/v1/refresh-tokens', {
    headers: { Authorization: `Bearer ${String(stored?.refreshToken)}`, 'content-type': 'application/json' },
    data: { unlockCode: '3691' },
  });
  expect(unlocked.status()).toBe(200);
});

test('a forgotten password is reset with a texted code and the SSN, then the new one signs in; the owner is told', async ({ page, request }) => {
  const { applicant } = await openAccountViaApi(request);
  await seedStoredState(page, { accessToken: null, refreshToken: null, locale: 'en' });
  await page.goto('/signin');
  // The email typed on sign-in goes along to the reset, and comes back to sign-in after it (WCAG 2.2 SC 3.3.7).
  await page.getByLabel('Email', { exact: true }).fill(applicant.email);
  await page.getByRole('link', { name: 'Forgot your password?' }).click();

  await expect(page.getByRole('heading', { name: 'Reset your password', exact: true })).toBeVisible();
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue(applicant.email);
  await expectAccessible(page);
  // An email without an account gets the same next step: a stranger learns nothing.
  await page.getByLabel('Email', { exact: true }).fill('nobody-here@providers.test');
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(page.getByText('If an account uses nobody-here@providers.test, we texted a 6-digit code to its phone.')).toBeVisible();
  await page.getByRole('link', { name: 'Use another email', exact: true }).click();
  await page.getByLabel('Email', { exact: true }).fill(applicant.email);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();

  await expect(page.getByRole('heading', { name: 'Enter your code', exact: true })).toBeVisible();
  await expectAccessible(page);
  // A phone's browser drops the tab while the text is read: opened again, it is back at the code, and
  // no new code is texted (that would void this one and count toward the limit).
  const code = await textedCode(request, applicant.phone);
  const texts = async () => ((await (await request.get(`/sandbox/outbox?phone=${applicant.phone}`)).json()) as { messages: unknown[] }).messages.length;
  const textsBefore = await texts();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Enter your code', exact: true })).toBeVisible();
  await expect(page.getByText(`If an account uses ${applicant.email}, we texted a 6-digit code to its phone.`)).toBeVisible();
  expect(await texts()).toBe(textsBefore);
  await fillCode(page, 'en', code);
  await page.getByRole('button', { name: 'Verify', exact: true }).click();

  await expect(page.getByLabel('Social Security number', { exact: true })).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel('Social Security number', { exact: true }).fill(applicant.ssn);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();

  await expect(page.getByRole('heading', { name: 'Choose a new password', exact: true })).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel('New password', { exact: true }).fill('short');
  await page.getByRole('button', { name: 'Change password', exact: true }).click();
  await expect(page.getByText('Password must be at least 8 characters.')).toBeVisible();
  await page.getByLabel('New password', { exact: true }).fill('Fresh Start');
  await page.getByRole('button', { name: 'Change password', exact: true }).click();
  await expect(page.getByText('Password cannot contain spaces.')).toBeVisible();
  // Known from breaches: the card API refuses it, the screen says why.
  await page.getByLabel('New password', { exact: true }).fill('Password1');
  await page.getByRole('button', { name: 'Change password', exact: true }).click();
  await expect(page.getByText('This password is too common, too easy to guess or has appeared in a data breach. Please choose another one.')).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel('New password', { exact: true }).fill('FreshStart2026');
  // The server changes the password; its answer never reaches the phone. Sent again, the same change
  // is answered as done (not "Your code has expired", round the code, SSN and password again).
  await loseAnswerOnce(page, '/api/v1/change-password');
  await page.getByRole('button', { name: 'Change password', exact: true }).click();
  await page.getByRole('dialog', { name: 'Sorry, something went wrong.' }).getByRole('button', { name: 'OK' }).click();
  await expect(page.getByLabel('New password', { exact: true })).toHaveValue('FreshStart2026');
  await page.getByRole('button', { name: 'Change password', exact: true }).click();

  // Started from sign-in: back there with a notice, then the new password works.
  await expect(page.getByText('Your password has been changed. Please sign in with your new password.')).toBeVisible();
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue(applicant.email);
  await page.getByLabel('Password', { exact: true }).fill('FreshStart2026');
  await page.getByRole('main').getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Available balance', exact: true })).toBeVisible();
  const emails = await (await request.get(`/sandbox/email-outbox?email=${encodeURIComponent(applicant.email)}`)).json();
  expect(emails.emails[0].subject).toContain('Your Providers password was changed.');
  // Told once: the change sent again did nothing again.
  expect(emails.emails.filter((email: { subject: string }) => email.subject.includes('password was changed'))).toHaveLength(1);
});

test('after sign-out, the back button cannot reach account screens', async ({ page }) => {
  await seedStoredState(page, { accessToken: null, refreshToken: null, locale: 'en' });
  await page.goto('/signin');
  await page.getByLabel('Email', { exact: true }).fill(demo.email);
  await page.getByLabel('Password', { exact: true }).fill(demo.password);
  await page.getByRole('main').getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Available balance', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page.getByLabel('Password', { exact: true })).toBeVisible();
  await page.goBack();
  await expect(page.getByRole('heading', { name: 'Available balance', exact: true })).toHaveCount(0);
  await expect(page).not.toHaveURL((url) => url.pathname === '/home');
});
