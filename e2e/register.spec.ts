/**
 * Opening an account inside the companion app (spec §2 /register), across real origins, at phone
 * size, against the real card API and its sandbox identity, address and SMS partners. A companion
 * user the card API does not know is sent to registration; axe runs on every screen, once per language.
 */
import { expect, test } from '@playwright/test';
import { CompanionHostPage } from './pages/CompanionHostPage.ts';
import { newApplicant, RegisterPage, textedCode, type Applicant } from './pages/identity/RegisterPage.ts';
import type { Locale } from './support/catalog.ts';
import { loseAnswerOnce } from './support/network.ts';

/**
 * The companion host with a brand-new companion user: the card app opens registration. Only the
 * account-opening flows run axe on every step (`checksEachStep`); the other tests check the screens
 * only they reach, so each screen is checked once per language rather than once per test.
 */
async function openRegistration(page: import('@playwright/test').Page, locale: Locale = 'en', checksEachStep = false) {
  const host = await CompanionHostPage.open(page);
  // A companion user nobody has registered yet, with an EBT account of their own.
  const ebtAccountId = `EBT-${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  await host.setUser({ uuid: crypto.randomUUID(), ebtAccountId });
  const register = new RegisterPage(page, host.app, 'en');
  await expect(register.heading('Tell us about yourself')).toBeVisible();
  if (locale === 'es') {
    await host.app.getByRole('button', { name: 'Español', exact: true }).click();
  }
  return { host, register: new RegisterPage(page, host.app, locale, checksEachStep) };
}

async function verifyPhone(register: RegisterPage, request: import('@playwright/test').APIRequestContext, applicant: Applicant) {
  await register.requestCode(applicant);
  await register.enterCode(await textedCode(request, applicant.phone));
}

for (const locale of ['en', 'es'] as const) {
  test(`a new cardholder opens an account and lands on home with a virtual card (${locale})`, async ({ page, request }) => {
    const applicant = newApplicant();
    const { register, host } = await openRegistration(page, locale, true);
    await register.personalInfo(applicant);
    await verifyPhone(register, request, applicant);
    // The text leads with the app's language (its calls say it in Accept-Language), the other after.
    const [texted] = ((await (await request.get(`/sandbox/outbox?phone=${applicant.phone}`)).json()) as { messages: { text: string }[] }).messages;
    expect(texted!.text.split('\n').map((line) => line.slice(0, 14))).toEqual(locale === 'es' ? ['Su código de v', 'Your Providers'] : ['Your Providers', 'Su código de v']);
    await register.address(applicant);
    await register.unlockCode(applicant);
    await register.agreements();

    await expect(host.app.getByRole('heading', { name: register.t('Available balance'), exact: true })).toBeVisible();
    await expect(host.app.getByText(register.t('Virtual card ending in {lastFour}').replace('{lastFour}', ''))).toBeVisible();
    await register.expectAccessible();
    // The draft is gone and the SSN never reached the host.
    const saved = JSON.stringify(await host.savedState());
    expect(saved).not.toContain(applicant.ssn.replace(/-/g, ''));
    expect(saved).not.toContain(applicant.ssn);
  });
}

test('an applicant the identity check turns down is told so', async ({ page, request }) => {
  const applicant = newApplicant({ lastName: 'Denied' });
  const { register } = await openRegistration(page);
  await register.personalInfo(applicant);
  await verifyPhone(register, request, applicant);
  await register.address(applicant);
  await register.unlockCode(applicant);
  await register.agreements();
  await expect(register.app.getByText('Unfortunately, we could not accept your application.')).toBeVisible();
  // Said first: nothing was charged; then what the person can do next (only things they can do).
  await expect(register.app.getByText(/Nothing was charged, and no account was opened\.$/)).toBeVisible();
  await expect(register.heading('What you can do')).toBeVisible();
  await expect(register.app.getByRole('listitem').filter({ hasText: 'Nothing was charged' })).toHaveCount(0);
  await expect(register.app.getByRole('link', { name: 'Contact support', exact: true })).toBeVisible();
  await register.expectAccessible();
});

test('a PO Box address is refused with its message and the opt-out link explains what is needed', async ({ page, request }) => {
  const applicant = newApplicant({ street1: 'PO Box 1234' });
  const { register } = await openRegistration(page);
  // The right format, but no 30 February: the message says so.
  await register.personalInfo({ ...applicant, dob: '02/30/1990' });
  await expect(register.app.getByText("This date doesn't exist. Please check the month and day.")).toBeVisible();
  await register.personalInfo(applicant);
  // Letters in the phone: not a 10-digit number (spec §5), not "required".
  await expect(register.heading('Verify your phone')).toBeVisible();
  await register.field('Mobile phone number').fill('559-CALL-NOW');
  await register.button('Send code').click();
  await expect(register.app.getByText('Please enter a 10-digit number.')).toBeVisible();
  await verifyPhone(register, request, applicant);
  await register.address(applicant);

  await expect(register.app.getByText("We're unable to accept PO Box addresses. Please try again.")).toBeVisible();
  // Under the street field, marking it, and focused there.
  await expect(register.field('Street address')).toHaveAttribute('aria-invalid', 'true');
  await expect(register.field('Street address')).toHaveAccessibleDescription("We're unable to accept PO Box addresses. Please try again.");
  await expect(register.field('Street address')).toBeFocused();
  await register.expectAccessible();
  await register.button('If you don’t have a legal address, tap here.').click();
  await expect(register.heading('A residential address is needed')).toBeVisible();
  await register.expectAccessible();
  await register.button('Back to the address form').click();
  await expect(register.heading('Your legal address')).toBeVisible();
  await expect(register.field('Street address')).toHaveValue('PO Box 1234');
});

test('the phone number can be changed from the code form; a wrong texted code is refused, then the right one moves on', async ({ page, request }) => {
  const applicant = newApplicant();
  const { register } = await openRegistration(page);
  await register.personalInfo(applicant);
  await register.requestCode(applicant);
  // Change phone number, by keyboard: the number takes the focus, ready to correct; sent again as it is.
  const sent = await textedCode(request, applicant.phone);
  await register.app.getByRole('button', { name: 'Change phone number', exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect(register.field('Mobile phone number')).toBeFocused();
  await page.keyboard.press('Enter');
  let first = sent;
  await expect.poll(async () => (first = await textedCode(request, applicant.phone))).not.toBe(sent);
  const wrong = first === '000000' ? '111111' : '000000';

  await register.enterCode(wrong);
  await expect(register.app.getByText("This isn't the right code.")).toBeVisible();
  await register.expectAccessible();
  // A new code, asked for by keyboard: the form says so and the first box has the focus.
  await register.app.getByRole('button', { name: 'Send a new code', exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect(register.app.getByRole('status').filter({ hasText: 'We sent you a new code.' })).toBeVisible();
  const boxes = register.app.getByRole('group', { name: 'Texted code' }).getByRole('textbox');
  await expect(boxes.first()).toBeFocused();
  // Typed, then taken back with Backspace (spec §4): each press clears one digit, an empty box's previous
  // one, and moves back to it (handled once: the key, not its beforeinput too, which Android keyboards
  // that send no Backspace key rely on: tests/unit/splitCodeInput.test.tsx).
  await page.keyboard.type('12');
  await expect(boxes.nth(2)).toBeFocused();
  await page.keyboard.press('Backspace');
  await expect(boxes.nth(1)).toBeFocused();
  await expect(boxes.nth(1)).toHaveValue('');
  await expect(boxes.first()).toHaveValue('1');
  await page.keyboard.press('Backspace');
  await expect(boxes.first()).toBeFocused();
  await expect(boxes.first()).toHaveValue('');
  let code = first;
  await expect.poll(async () => (code = await textedCode(request, applicant.phone))).not.toBe(first);
  await register.enterCode(code);
  await expect(register.heading('Your legal address')).toBeVisible();
});

test("a right code whose answer was lost is not called wrong when sent again: it can't be used twice, a new one moves on", async ({ page, request }) => {
  const applicant = newApplicant();
  const { register } = await openRegistration(page);
  await register.personalInfo(applicant);
  await register.requestCode(applicant);
  const code = await textedCode(request, applicant.phone);
  // The server takes the code; its answer never reaches the phone.
  await loseAnswerOnce(page, '/api/v1/verify-phone');
  await register.enterCode(code);
  await register.app.getByRole('dialog', { name: 'Sorry, something went wrong.' }).getByRole('button', { name: 'OK' }).click();
  await register.button('Verify').click();
  await expect(register.app.getByText("This code can't be used anymore. Please ask for a new code.")).toBeVisible();
  await expect(register.app.getByText("This isn't the right code.")).toHaveCount(0);
  await register.app.getByRole('button', { name: 'Send a new code', exact: true }).click();
  let next = code;
  await expect.poll(async () => (next = await textedCode(request, applicant.phone))).not.toBe(code);
  await register.enterCode(next);
  await expect(register.heading('Your legal address')).toBeVisible();
});
