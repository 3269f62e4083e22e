/**
 * axe (WCAG 2.0/2.1 A and AA, WCAG 2.2 AA) on sign-in, unlock and home in both languages, no
 * sideways scrolling at 360 px (also with the text at twice its size), and a phone screenshot of each
 * into test-results/screens/.
 */
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { ManageAccountPage } from './pages/account/ManageAccountPage.ts';
import { ActivityPage } from './pages/activity/ActivityPage.ts';
import { OrderCardPage } from './pages/cards/OrderCardPage.ts';
import { HomePage } from './pages/home/HomePage.ts';
import { SignInPage } from './pages/session/SignInPage.ts';
import { UnlockPage } from './pages/session/UnlockPage.ts';
import type { AppPage } from './pages/AppPage.ts';
import { axeViolations } from './support/accessibility.ts';
import { openAccountViaApi } from './support/accounts.ts';
import { sandboxSession, signInViaApi } from './support/api.ts';
import type { Locale } from './support/catalog.ts';
import { seedStoredState } from './support/storage.ts';

type Screen = 'signin' | 'unlock' | 'home';

const open: Record<Screen, (page: Page, locale: Locale, request: Parameters<typeof signInViaApi>[0]) => Promise<AppPage>> = {
  signin: async (page, locale) => {
    await seedStoredState(page, { accessToken: null, refreshToken: null, locale });
    return SignInPage.open(page, { locale });
  },
  unlock: async (page, locale, request) => {
    const tokens = await sandboxSession(request, 60);
    await seedStoredState(page, { accessToken: null, refreshToken: tokens.refresh, locale });
    await page.goto('/unlock');
    return UnlockPage.expectOn(page, locale);
  },
  home: async (page, locale, request) => {
    const tokens = await signInViaApi(request);
    await seedStoredState(page, { accessToken: tokens.access, refreshToken: tokens.refresh, locale });
    return HomePage.open(page, locale);
  },
};

for (const locale of ['en', 'es'] as const) {
  for (const screen of ['signin', 'unlock', 'home'] as const) {
    test(`${screen} (${locale}) has no axe violations and fits 360 px`, async ({ page, request }, testInfo) => {
      const view = await open[screen](page, locale, request);
      await view.expectLanguage(locale);

      expect(await axeViolations(page), 'axe violations').toEqual([]);

      const { scrollWidth, viewportWidth } = await view.horizontalOverflow();
      expect(viewportWidth).toBe(360);
      expect(scrollWidth, 'no horizontal scrolling at 360 px').toBeLessThanOrEqual(360);

      await page.screenshot({
        path: path.join(testInfo.project.outputDir, 'screens', `${screen}-${locale}.png`),
        fullPage: true,
      });
    });
  }
}

/**
 * Large text, as a low-vision cardholder sets the browser's text size (Chrome's default font size, set
 * here through DevTools' Page.setFontSizes): the app's sizes follow it, and at twice the size every
 * screen still fits a 360 px phone (WCAG 1.4.4). Spanish, whose words are longer: the header's actions,
 * the password's "Mostrar contraseña", home's balance, the fee table and long words in headings.
 */
test('with the browser text size at 200%, the screens follow it and fit 360 px (es)', async ({ page, request }) => {
  const largeText = async (tab: Page) => {
    const devTools = await tab.context().newCDPSession(tab);
    await devTools.send('Page.setFontSizes', { fontSizes: { standard: 32 } });
  };
  const fits = async (view: AppPage, what: string) => {
    expect(await view.page.evaluate(() => getComputedStyle(document.documentElement).fontSize), `${what}: the text size followed`).toBe('32px');
    const { scrollWidth, viewportWidth } = await view.horizontalOverflow();
    expect(scrollWidth, `${what}: no horizontal scrolling at 360 px`).toBeLessThanOrEqual(360);
    expect(viewportWidth).toBe(360);
  };

  await largeText(page);
  await seedStoredState(page, { accessToken: null, refreshToken: null, locale: 'es' });
  await fits(await SignInPage.open(page, { locale: 'es' }), 'sign-in');

  const signedIn = await page.context().newPage();
  await largeText(signedIn);
  const tokens = await signInViaApi(request);
  await seedStoredState(signedIn, { accessToken: tokens.access, refreshToken: tokens.refresh, locale: 'es' });
  const home = await HomePage.open(signedIn, 'es');
  await fits(home, 'home');
  await fits(await ManageAccountPage.fromHome(home), 'Manage account');
  await fits(await ActivityPage.open(signedIn, 'es'), 'activity');

  // The card order's amounts, four digits before the point: "Saldo después del cargo" and its amount.
  const funded = await signedIn.context().newPage();
  await largeText(funded);
  const { applicant, tokens: fundedTokens } = await openAccountViaApi(request);
  expect((await request.post('/sandbox/events', { data: { type: 'deposit', email: applicant.email, amountCents: 403_712, payer: 'Valley Transit', payee: `${applicant.firstName} ${applicant.lastName}` } })).status()).toBe(200);
  await seedStoredState(funded, { accessToken: fundedTokens.access, refreshToken: fundedTokens.refresh, locale: 'es' });
  const order = await OrderCardPage.open(funded, 'es');
  await order.expectReview(403_712, applicant.street1);
  await fits(order, 'the card order');
});

// The shared check itself: it must find what it is for, on the page and inside a frame on another origin.
test.describe('the axe check', () => {
  const flawed = '<main><h1>Flawed</h1><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></main>';
  const document = (body: string) => `<!doctype html><html lang="en"><head><title>Axe check</title></head><body>${body}</body></html>`;

  test('finds every image without a text alternative on a page with no frames', async ({ page }) => {
    await page.route('http://host.test/', (route) => route.fulfill({ contentType: 'text/html', body: document(flawed) }));
    await page.goto('http://host.test/');
    expect(page.frames()).toHaveLength(1);
    const violations = await axeViolations(page);
    expect(violations.map((violation) => violation.rule)).toEqual(['image-alt']);
    expect(violations[0]?.targets, 'both images, not only the first').toHaveLength(2);
  });

  test('finds them inside a frame on another origin too, and only there when asked about that frame', async ({ page }) => {
    await page.route('http://frame.test/', (route) => route.fulfill({ contentType: 'text/html', body: document(flawed) }));
    await page.route('http://host.test/', (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: document('<main><h1>Host</h1><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><iframe name="card-app" title="Card" src="http://frame.test/"></iframe></main>'),
      }),
    );
    await page.goto('http://host.test/');
    await expect(page.frameLocator('iframe[name="card-app"]').getByRole('heading', { name: 'Flawed' })).toBeVisible();

    const everywhere = await axeViolations(page);
    expect(everywhere.map((violation) => violation.rule)).toEqual(['image-alt']);
    expect(everywhere[0]?.targets, "the host's image and the frame's two").toHaveLength(3);
    expect(everywhere[0]?.targets.slice(1), "the frame's, named by their frame").toEqual(['iframe[name="card-app"] img:nth-child(2)', 'iframe[name="card-app"] img:nth-child(3)']);
    const inFrame = await axeViolations(page.frame({ name: 'card-app' })!);
    expect(inFrame.map((violation) => violation.rule)).toEqual(['image-alt']);
    expect(inFrame[0]?.targets, "the frame's two images, not the host's").toEqual(['img:nth-child(2)', 'img:nth-child(3)']);
  });
});
