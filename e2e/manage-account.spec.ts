/**
 * Manage account through the real server at phone size: a fresh cardholder follows home's link,
 * is told about a mismatched confirmation, an obvious code and a wrong current code (with the unlock
 * attempts left), saves a new unlock code in English and another in Spanish, each time proving it with
 * the current one, and /refresh-tokens then accepts only the last one. axe on each state, in both
 * languages. An agreement that could not be loaded is tried again by keyboard without losing the focus.
 * A change whose answer was lost is saved again without spending an unlock attempt.
 */
import { expect, test, type APIRequestContext } from '@playwright/test';
import { HomePage } from './pages/home/HomePage.ts';
import { ManageAccountPage } from './pages/account/ManageAccountPage.ts';
import { expectAccessible } from './support/accessibility.ts';
import { openAccountViaApi } from './support/accounts.ts';
import { seedStoredState } from './support/storage.ts';
import { loseAnswerOnce, routeOnce } from './support/network.ts';

/** POST /refresh-tokens with a refresh token and an unlock code: the HTTP status and statusCode. */
async function unlockWith(request: APIRequestContext, refresh: string, unlockCode: string) {
  const response = await request.post('/api/v1/refresh-tokens', {
    headers: { Authorization: `Bearer ${refresh}`, 'content-type': 'application/json' },
    data: { unlockCode },
  });
  return { status: response.status(), statusCode: ((await response.json()) as { statusCode: number }).statusCode };
}

test('a cardholder changes the unlock code from home, in English and then in Spanish', async ({ page, request }) => {
  const { applicant, tokens } = await openAccountViaApi(request);
  await seedStoredState(page, { accessToken: tokens.access, refreshToken: tokens.refresh, locale: 'en' });
  const home = await HomePage.open(page);

  const manage = await ManageAccountPage.fromHome(home);
  await expect(manage.sectionHeading).toBeVisible();
  await expectAccessible(page);

  // An agreement that could not be loaded (a gateway's error page, once): Try again, by keyboard, keeps
  // the focus on the dialog's title, and the text comes under it.
  await routeOnce(page, (url) => url.pathname === '/api/v1/agreement', (route) => route.fulfill({ status: 502, contentType: 'text/html', body: '<html>Bad gateway</html>' }));
  await page.getByRole('button', { name: 'Read the Terms of use', exact: true }).click();
  // An answer without a statusCode also opens the generic error modal (spec §8), over the agreement's.
  await page.getByRole('dialog', { name: 'Sorry, something went wrong.' }).getByRole('button', { name: 'OK' }).press('Enter');
  const failed = page.getByRole('dialog', { name: 'Agreement' });
  await expect(failed.getByRole('alert')).toContainText('Please try again.');
  await failed.getByRole('button', { name: 'Try again' }).press('Enter');
  const agreement = page.getByRole('dialog', { name: 'Terms of use' });
  await expect(agreement.getByText(/^Version \d{4}-\d{2}-\d{2}$/)).toBeVisible();
  await expect(agreement.getByRole('heading', { name: 'Terms of use', level: 2 })).toBeFocused();
  // Its long text scrolls under Close, which stays in reach at the foot of the dialog at 360 × 740.
  expect(await agreement.evaluate((dialog) => dialog.scrollHeight > dialog.clientHeight), 'the text is longer than the screen').toBe(true);
  await expect(agreement.getByRole('button', { name: 'Close' })).toBeInViewport({ ratio: 1 });
  await expectAccessible(page, 'the agreement after a retry');
  await page.keyboard.press('Escape');
  await expect(agreement).toBeHidden();

  await manage.save(applicant.unlockCode, '3971', '3917');
  await manage.expectFieldError(manage.confirmation, "The unlock codes don't match.");
  await manage.save(applicant.unlockCode, '1234');
  await manage.expectFieldError(manage.newCode, 'This code is easy to guess. Please choose another one.', ManageAccountPage.newCodeRule);
  await expectAccessible(page);
  // Someone who does not know the current code cannot replace it, and spends an unlock attempt trying.
  await manage.save('9075', '3971');
  await manage.expectWrongCurrentCode(4);
  await expectAccessible(page);
  await manage.save(applicant.unlockCode, '3971');
  await manage.expectSaved();
  await expectAccessible(page);

  const spanish = await manage.switchLanguage();
  await expect(spanish.sectionHeading).toBeVisible();
  await expectAccessible(page);
  await spanish.save('3971', '5802', '5820');
  await spanish.expectFieldError(spanish.confirmation, "The unlock codes don't match.");
  await spanish.save('3971', '1111');
  await spanish.expectFieldError(spanish.newCode, 'This code is easy to guess. Please choose another one.', ManageAccountPage.newCodeRule);
  await expectAccessible(page);
  // The old code is no longer the current one: refused, and the saved count started again at 4 left.
  await spanish.save(applicant.unlockCode, '5802');
  await spanish.expectWrongCurrentCode(4);
  await spanish.save('12', '5802');
  await spanish.expectFieldError(spanish.currentCode, 'Please enter your 4-digit unlock code.');
  await expectAccessible(page);
  await spanish.save('3971', '5802');
  await spanish.expectSaved();
  await expectAccessible(page);

  await spanish.backToHome.click();
  await new HomePage(page, 'es').expectShown();

  // The code really changed on the server: only the last one unlocks now (wrong tries do not spend the token).
  expect(await unlockWith(request, tokens.refresh, applicant.unlockCode)).toEqual({ status: 401, statusCode: 101 });
  expect(await unlockWith(request, tokens.refresh, '3971')).toEqual({ status: 401, statusCode: 101 });
  expect(await unlockWith(request, tokens.refresh, '5802')).toEqual({ status: 200, statusCode: 0 });
});


test('a change whose answer was lost on the way is saved again safely: no unlock attempt spent', async ({ page, request }) => {
  const { applicant, tokens } = await openAccountViaApi(request);
  await seedStoredState(page, { accessToken: tokens.access, refreshToken: tokens.refresh, locale: 'en' });
  const manage = await ManageAccountPage.fromHome(await HomePage.open(page));
  // The server makes the change; its answer never reaches the phone.
  await loseAnswerOnce(page, '/api/v1/set-unlock-code');
  await manage.save(applicant.unlockCode, '3971');
  await page.getByRole('dialog', { name: 'Sorry, something went wrong.' }).getByRole('button', { name: 'OK' }).click();
  // What was typed is still there: Save again is answered as done, not as a wrong current code.
  await expect(manage.newCode).toHaveValue('3971');
  await manage.saveButton.click();
  await manage.expectSaved();
  expect(await unlockWith(request, tokens.refresh, '3971')).toEqual({ status: 200, statusCode: 0 });
});
