/**
 * Experiment config through the real server: a tester flips showNewDebitDetails in the sandbox, /home
 * goes to /home2 with the new debit details, the exposure reaches analytics as a user property, and
 * with no config /home stays. The config is global, so this file runs alone after the others
 * (playwright.config.ts project "experiments").
 */
import { expect, test } from '@playwright/test';
import { expectAccessible } from './support/accessibility.ts';
import { signInViaApi } from './support/api.ts';
import { shown } from './support/catalog.ts';
import { seedStoredState } from './support/storage.ts';

const flags = { virtualCards: false, directDeposit: false, cashLoadMap: false, showNewDebitDetails: true };

test.describe.configure({ mode: 'serial' });

test.afterAll(async ({ request }) => {
  await request.delete('/sandbox/experiments');
});

for (const locale of ['en', 'es'] as const) {
  test(`with showNewDebitDetails on, /home opens the new home with debit details (${locale})`, async ({ page, request }) => {
    expect((await request.put('/sandbox/experiments', { data: { audience: 'everyone', flags } })).status()).toBe(200);
    // Ana: a working virtual card and a physical card on its way (server/seed.ts), one of each detail.
    const tokens = await signInViaApi(request, 'ana@providers.test');
    await seedStoredState(page, { accessToken: tokens.access, refreshToken: tokens.refresh, locale });

    await page.goto('/home');
    await expect(page).toHaveURL((url) => url.pathname === '/home2');
    const details = page.getByRole('region', { name: shown(locale, 'Debit card details'), exact: true });
    await expect(details).toBeVisible();
    await expect(details.getByText(shown(locale, 'Ready to use.'))).toBeVisible();
    await expect(details.getByText(shown(locale, 'Activate it when it arrives to start using it.'))).toBeVisible();
    // Each card once: the details replace the "Your cards" list.
    await expect(page.getByRole('heading', { name: shown(locale, 'Your cards'), exact: true })).toHaveCount(0);

    await expectAccessible(page, 'the new home');
  });
}

test('the exposure is an analytics user property, readable in the sandbox', async ({ page, request }) => {
  await request.put('/sandbox/experiments', { data: { audience: 'everyone', flags } });
  const tokens = await signInViaApi(request);
  await seedStoredState(page, { accessToken: tokens.access, refreshToken: tokens.refresh, locale: 'en' });
  await page.goto('/home');
  await expect(page).toHaveURL((url) => url.pathname === '/home2');

  type StoredEvent = { name: string; userProperties: Record<string, unknown> };
  await expect
    .poll(
      async () => {
        const answer = await request.get('/sandbox/analytics-events?name=route.visit&limit=100');
        const { events } = (await answer.json()) as { events: StoredEvent[] };
        return events.some((event) => event.userProperties['experiment.showNewDebitDetails'] === true);
      },
      // The event is stored after the app's flush timer (2 s), its POST and the insert: on a loaded
      // machine that can take well past the suite's default 15 s.
      { timeout: 60_000 },
    )
    .toBe(true);
});

test('with no config (404), /home stays the home screen', async ({ page, request }) => {
  await request.delete('/sandbox/experiments');
  expect((await request.get('/api/v1/experiments?isInternal=false')).status()).toBe(404);
  const tokens = await signInViaApi(request);
  await seedStoredState(page, { accessToken: tokens.access, refreshToken: tokens.refresh, locale: 'en' });
  await page.goto('/home');
  await expect(page.getByRole('heading', { name: 'Available balance' })).toBeVisible();
  await expect(page).toHaveURL((url) => url.pathname === '/home');
  await expect(page.getByRole('region', { name: 'Debit card details' })).toHaveCount(0);
});
