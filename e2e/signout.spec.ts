/** Sign-out ends the session; the browser's back button must not bring account data back. */
import { expect, test, type Page } from '@playwright/test';
import { HomePage } from './pages/HomePage.ts';
import { SignInPage } from './pages/SignInPage.ts';
import { readStoredState } from './support/storage.ts';

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
  // History: home (first document) → statements (second document) → home (same document, in-app link).
  const signIn = await SignInPage.open(page);
  await signIn.signIn();
  await page.goto('/statements');
  await page.getByRole('link', { name: 'Go to home' }).click();
  const home = new HomePage(page);
  await home.expectShown();

  const signedOut = await home.signOut();
  await expect(signedOut.status('You have signed out.')).toBeVisible();
  await expect(signedOut.signOutButton).toHaveCount(0);
  const stored = await readStoredState(page);
  expect(stored?.accessToken ?? null).toBeNull();
  expect(stored?.refreshToken ?? null).toBeNull();

  // Back within the app (same document): the statements entry must not open.
  await page.goBack();
  await expectNoAccountAfterBack(page, '/statements');

  // Back to the first document, which showed the balance before.
  await page.goBack();
  await expectNoAccountAfterBack(page, '/home');
});
