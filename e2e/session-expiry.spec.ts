/** REFRESH_REQUIRED (103) → the unlock code in the auth modal over home → home; unlock needs a refresh token. */
import { expect, test } from '@playwright/test';
import { UnlockPage } from './pages/session/UnlockPage.ts';
import { SignInPage } from './pages/session/SignInPage.ts';
import { demoHome, expireAccessToken, sandboxSession } from './support/api.ts';
import { readStoredState, seedStoredState } from './support/storage.ts';
import { dollars } from './support/text.ts';

const REFRESH_REQUIRED = 103;

test('an expired session asks for the unlock code over home, then home loads', async ({ page, request }) => {
  const { accountOverview: overview } = await demoHome(request);
  const tokens = await sandboxSession(request, 3600);
  await seedStoredState(page, { accessToken: tokens.access, refreshToken: tokens.refresh, locale: 'en' });
  // The session expires because the test says so (the sandbox ends the access token), not on a clock.
  await expireAccessToken(request, tokens.access);

  const homeCall = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/v1/home');
  await page.goto('/home');
  expect((await (await homeCall).json()).statusCode, "the app's own /home call answers REFRESH_REQUIRED").toBe(
    REFRESH_REQUIRED,
  );

  const unlock = await UnlockPage.expectModal(page);
  await expect(page).toHaveURL((url) => url.searchParams.get('redirect') === '/home');
  await expect(unlock.status('Your session has expired.')).toBeVisible();

  await unlock.unlockRejected('1111');
  await expect(unlock.code).toHaveAccessibleDescription("This isn't the right code. You have 4 more unlock attempts.");
  await expect(page).toHaveURL((url) => url.pathname === '/unlock');

  const home = await unlock.unlock('2580');
  await home.expectBalance(dollars(overview.balance, 'en'));
  // The session was renewed: new tokens replace the expired ones in storage.
  await expect
    .poll(async () => {
      const stored = await readStoredState(page);
      return typeof stored?.accessToken === 'string' && stored.accessToken !== tokens.access && stored.refreshToken !== tokens.refresh;
    }, { message: 'renewed tokens are saved' })
    .toBe(true);
});

test('unlock without a refresh token goes to sign-in, keeping the remembered route', async ({ page }) => {
  await page.goto('/unlock');
  await new SignInPage(page).expectShown();
  expect(new URL(page.url()).search).toBe('');

  await page.goto('/unlock?redirect=%2Fhome');
  await new SignInPage(page).expectShown();
  expect(new URL(page.url()).searchParams.get('redirect')).toBe('/home');
});
