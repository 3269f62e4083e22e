/**
 * Spanish. Checks marked "Spanish catalogue:" need locales/es/messages.po to be translated; they are
 * soft, so the rest of the flow still runs and reports while the catalogue is empty.
 */
import { expect, test } from '@playwright/test';
import { HomePage } from './pages/home/HomePage.ts';
import { SignInPage } from './pages/session/SignInPage.ts';
import { demo, demoHome } from './support/api.ts';
import { shown } from './support/catalog.ts';
import { readStoredState, seedStoredState } from './support/storage.ts';
import { dollars, spanishShortDate } from './support/text.ts';

const wrongPasswordEnglish = 'Sorry, the email address or password you entered is incorrect. Please try again.';

/**
 * What the app shows for `source` in Spanish, from the catalogue; the catalogue must have it
 * translated (an untranslated message is shown in English, which would match itself).
 */
function inSpanish(source: string): string {
  const text = shown('es', source);
  expect.soft(text, `Spanish catalogue: "${source}" is translated`).not.toBe(source);
  return text;
}

test('switching to Spanish on sign-in carries through to home and survives a reload', async ({ page, request }) => {
  const { accountOverview: overview } = await demoHome(request);
  const english = await SignInPage.open(page);
  await english.expectLanguage('en');
  await expect(english.title).toHaveText('Sign in');

  const spanish = await english.switchLanguage();
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await expect(spanish.languageSwitch, 'the switch now offers English, in English').toHaveText('English');
  await expect(spanish.languageSwitch).toHaveAttribute('lang', 'en');
  await expect.soft(spanish.title, 'Spanish catalogue: the sign-in heading is in Spanish').toHaveText(inSpanish('Sign in'));

  const home = await spanish.signIn();
  await home.expectLanguage('es');
  await home.expectBalance(dollars(overview.balance, 'es'));
  await expect(home.row(overview.transactions[0]!.counterparty!).first(), 'activity dates are written in Spanish').toContainText(
    spanishShortDate,
  );
  // A fee is said by its fee's name, in Spanish too (the server sends the fee's code).
  const fee = overview.transactions.find((transaction) => transaction.kind === 'fee');
  expect(fee?.counterparty, "the demo's activity has the cash reload fee").toBe('cashReload');
  await expect(home.rows.filter({ hasText: 'Cargo: Recarga en efectivo' })).toHaveCount(1);
  await expect
    .soft(home.screen.getByRole('heading', { name: inSpanish('Available balance'), exact: true }), 'Spanish catalogue: home is in Spanish')
    .toHaveCount(1);

  await page.reload();
  const reloaded = new HomePage(page, 'es');
  await reloaded.expectShown();
  await reloaded.expectLanguage('es');
  await expect(reloaded.languageSwitch).toHaveText('English');
  expect((await readStoredState(page))?.locale, 'the language choice is saved').toBe('es');
});

test('a browser that prefers Spanish starts in Spanish', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'es-US' });
  const page = await context.newPage();
  const signIn = await SignInPage.open(page, { locale: 'es' });
  await signIn.expectLanguage('es');
  await expect(signIn.languageSwitch).toHaveText('English');
  await context.close();
});

test('a wrong password in Spanish shows the error in Spanish', async ({ page }) => {
  await seedStoredState(page, { accessToken: null, refreshToken: null, locale: 'es' });
  const signIn = await SignInPage.open(page, { locale: 'es' });
  await signIn.expectLanguage('es');

  await signIn.signInRejected(demo.email, 'not-the-password');
  await expect(signIn.problem).toBeVisible();
  await expect(page).toHaveURL((url) => url.pathname === '/signin');
  await expect.soft(signIn.problem, 'Spanish catalogue: the wrong-password error is in Spanish').toHaveText(inSpanish(wrongPasswordEnglish));
});
