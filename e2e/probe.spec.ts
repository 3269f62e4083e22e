import { test } from '@playwright/test';
import { SignInPage } from './pages/SignInPage.ts';
test('probe', async ({ page }) => {
  const signIn = await SignInPage.open(page);
  console.log(await page.getByRole('main').ariaSnapshot());
  const home = await signIn.signIn();
  await page.waitForTimeout(500);
  console.log(await home.screen.ariaSnapshot());
  console.log(await page.locator('body').ariaSnapshot());
});
