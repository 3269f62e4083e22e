/** Sign-out ends the session; the browser's back button must not bring account data back. */
import { expect, test } from '@playwright/test';
import { HomePage } from './pages/HomePage.ts';
import { SignInPage } from './pages/SignInPage.ts';
import { readStoredState } from './support/storage.ts';

test('signing out confirms it, and going back does not show the account', async ({ page }) => {
  const signIn = await SignInPage.open(page);
  await signIn.signIn();
  // A second history entry for home, as when the user opens home again from a bookmark.
  const home = await HomePage.open(page);

  const signedOut = await home.signOut();
  await expect(signedOut.status('You have signed out.')).toBeVisible();
  await expect(signedOut.signOutButton).toHaveCount(0);
  const stored = await readStoredState(page);
  expect(stored?.accessToken ?? null).toBeNull();
  expect(stored?.refreshToken ?? null).toBeNull();

  await page.goBack();
  await expect(page).toHaveURL((url) => url.pathname === '/signin' || url.pathname === '/unlock');
  await expect(page).toHaveURL((url) => url.searchParams.get('redirect') === '/home');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(home.balanceHeading).toHaveCount(0);
  await expect(page.getByRole('main')).not.toContainText('$');
});
