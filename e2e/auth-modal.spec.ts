/**
 * The auth modal through the real server at phone size (spec §4 auth): a session expires while a
 * cardholder is changing the unlock code; the modal asks for the unlock code (or a sign-in) over the
 * form, the address bar shows the auth route, and afterwards the same form, with what was typed,
 * saves. The saved code is then checked against the server. axe on the modal in both languages.
 */
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { ManageAccountPage } from './pages/account/ManageAccountPage.ts';
import { SignInPage } from './pages/session/SignInPage.ts';
import { UnlockPage } from './pages/session/UnlockPage.ts';
import { expectAccessible } from './support/accessibility.ts';
import { expireAccessToken, sandboxSession } from './support/api.ts';
import { openAccountViaApi, setPasswordViaApi, signInViaApiAs } from './support/accounts.ts';
import { readStoredState, seedStoredState } from './support/storage.ts';

/** The app's saved refresh token now (the unlock rotated it), and whether /refresh-tokens takes `unlockCode` with it. */
async function unlocksWith(page: Page, request: APIRequestContext, unlockCode: string): Promise<number> {
  const refresh = String((await readStoredState(page))?.refreshToken);
  const response = await request.post('/api/v1/refresh-tokens', {
    headers: { Authorization: `Bearer ${refresh}`, 'content-type': 'application/json' },
    data: { unlockCode },
  });
  return response.status();
}

/** A fresh cardholder on Manage account with a sandbox session, whose access token the test ends with expireAccessToken. */
async function manageAccountWithSandboxSession(page: Page, request: APIRequestContext) {
  const { applicant } = await openAccountViaApi(request);
  const tokens = await sandboxSession(request, 3600, applicant.email);
  await seedStoredState(page, { accessToken: tokens.access, refreshToken: tokens.refresh, locale: 'en' });
  await page.goto('/manage-account');
  const manage = new ManageAccountPage(page);
  await manage.expectShown();
  return { applicant, tokens, manage };
}

test('the session expires mid-form: unlock in the modal, and the typed new code is saved', async ({ page, request }, testInfo) => {
  const { applicant, tokens, manage } = await manageAccountWithSandboxSession(page, request);
  await manage.currentCode.fill(applicant.unlockCode);
  await manage.newCode.fill('4826');
  await manage.confirmation.fill('4826');
  await expireAccessToken(request, tokens.access);

  await manage.saveButton.click();
  const unlock = await UnlockPage.expectModal(page);
  await expect(page).toHaveURL((url) => url.searchParams.get('redirect') === '/manage-account');
  await expect(unlock.surface.getByRole('status')).toHaveText('Your session has expired.');
  // The form is still there underneath, as typed, waiting to save.
  await expect(manage.newCode).toHaveValue('4826');
  await expect(manage.confirmation).toHaveValue('4826');
  await expect(unlock.code).toBeFocused();
  await expectAccessible(page);
  await page.screenshot({ path: path.join(testInfo.project.outputDir, 'screens', 'auth-modal-unlock-en.png') });

  // The header is behind the modal, so the modal has its own language switch (es, and back).
  await unlock.surface.getByRole('button', { name: 'Español' }).click();
  const spanish = page.getByRole('dialog', { name: 'Escriba su código de desbloqueo' });
  await expect(spanish.getByRole('status')).toHaveText('Su sesión ha vencido.');
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await expectAccessible(page);
  await page.screenshot({ path: path.join(testInfo.project.outputDir, 'screens', 'auth-modal-unlock-es.png') });
  await spanish.getByRole('button', { name: 'English' }).click();
  await expect(unlock.surface.getByRole('status')).toHaveText('Your session has expired.');

  await unlock.unlockRejected('9999');
  await expect(unlock.codeProblem).toContainText('You have 4 more unlock attempts.');
  await unlock.unlockOverScreen('/manage-account', applicant.unlockCode);
  await manage.expectSaved();
  // The modal gives the focus back to the Save button it was on (it kept it while busy: aria-disabled).
  await expect(manage.saveButton).toBeFocused();

  expect(await unlocksWith(page, request, applicant.unlockCode), 'the old unlock code no longer works').toBe(401);
  expect(await unlocksWith(page, request, '4826'), 'the code typed before the session expired was saved').toBe(200);
});

test('signed out elsewhere mid-form (es): sign in again in the modal, and the typed code is saved', async ({ page, request }, testInfo) => {
  const { applicant } = await openAccountViaApi(request);
  await setPasswordViaApi(request, applicant, 'Nueva2026pass');
  const tokens = await signInViaApiAs(request, applicant.email, 'Nueva2026pass');
  await seedStoredState(page, { accessToken: tokens.access, refreshToken: tokens.refresh, locale: 'es' });
  await page.goto('/manage-account');
  const manage = new ManageAccountPage(page, 'es');
  await manage.expectShown();
  await manage.currentCode.fill(applicant.unlockCode);
  await manage.newCode.fill('7315');
  await manage.confirmation.fill('7315');
  // The session ends on the server (as a password change elsewhere would): the next call says sign in.
  expect((await request.post('/api/v1/sign-out', { headers: { Authorization: `Bearer ${tokens.refresh}` } })).status()).toBe(200);

  await manage.saveButton.click();
  const signIn = await SignInPage.expectModal(page, 'es');
  await expect(page).toHaveURL((url) => url.searchParams.get('redirect') === '/manage-account');
  await expect(signIn.surface.getByRole('status')).toHaveText('Por su seguridad, vuelva a iniciar sesión.');
  await expect(manage.newCode).toHaveValue('7315');
  await expectAccessible(page);
  await page.screenshot({ path: path.join(testInfo.project.outputDir, 'screens', 'auth-modal-signin-es.png') });

  await signIn.submit(applicant.email, 'Nueva2026pass');
  await expect(signIn.surface).toBeHidden();
  await expect(page).toHaveURL((url) => url.pathname === '/manage-account' && url.search === '');
  await manage.expectSaved();
  await expect(manage.saveButton).toBeFocused();
  expect(await unlocksWith(page, request, '7315'), 'the code typed before signing in again was saved').toBe(200);
});

test('a reload while the modal is open opens the unlock screen for real, then returns to the screen', async ({ page, request }) => {
  const { applicant, tokens, manage } = await manageAccountWithSandboxSession(page, request);
  await expireAccessToken(request, tokens.access);
  await manage.save(applicant.unlockCode, '4826');
  await UnlockPage.expectModal(page);

  await page.reload();
  const unlock = await UnlockPage.expectOn(page);
  await expect(page.getByRole('dialog')).toBeHidden();
  await unlock.submit(applicant.unlockCode);
  await manage.expectShown();
  // What was typed lived only on the screen: after a reload the form starts empty.
  await expect(manage.newCode).toHaveValue('');
});

test("a session found expired as the app opens: once unlocked, the screen's heading has the focus, not the page's start", async ({ page, request }) => {
  const { applicant } = await openAccountViaApi(request);
  const tokens = await sandboxSession(request, 3600, applicant.email);
  await seedStoredState(page, { accessToken: tokens.access, refreshToken: tokens.refresh, locale: 'en' });
  await expireAccessToken(request, tokens.access);
  await page.goto('/transactions');
  const unlock = await UnlockPage.expectModal(page);
  await expect(unlock.code).toBeFocused();
  // The modal opened as the page loaded: the browser has nothing to give the focus back to.
  await unlock.code.fill(applicant.unlockCode);
  await page.keyboard.press('Enter');
  await expect(unlock.surface).toBeHidden();
  await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
});
