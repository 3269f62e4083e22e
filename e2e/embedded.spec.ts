/**
 * Embedded mode across real origins: the card app (appURL) inside the sandbox companion host
 * (companionHostURL), speaking the host protocol in Debian Chromium at phone size.
 */
import path from 'node:path';
import { expect, test, type Frame, type FrameLocator, type Page } from '@playwright/test';
import { CompanionHostPage, defaultCompanionUser } from './pages/CompanionHostPage.ts';
import { axeViolations, focusRing } from './support/accessibility.ts';
import { shown, type Locale } from './support/catalog.ts';
import { appURL, companionHostURL } from './support/origins.ts';

const demoAccountNumber = '400012345678';
const freeTaxFilingUrl = 'https://www.irs.gov/filing/irs-free-file-do-your-taxes-for-free';

/** The card app's own window inside the host page (for what only the app's origin can see). */
function appWindow(page: Page): Frame {
  const frame = page.frame({ name: 'card-app' });
  if (!frame) throw new Error('The card app frame is missing');
  return frame;
}

/** Keys in the card app origin's localStorage, read from inside the frame. */
const appLocalStorageKeys = (page: Page) => appWindow(page).evaluate(() => Object.keys(localStorage));
/** What the app's origin keeps besides localStorage: sessionStorage's keys, IndexedDB's databases, Cache Storage's caches. */
const appOtherStorage = (page: Page) =>
  appWindow(page).evaluate(async () => ({
    sessionStorage: Object.keys(sessionStorage),
    indexedDB: (await indexedDB.databases()).map((database) => database.name),
    caches: await caches.keys(),
  }));

const text = (locale: Locale, source: string) => shown(locale, source);

async function expectHome(app: FrameLocator, locale: Locale = 'en') {
  await expect(app.getByRole('heading', { name: text(locale, 'Available balance'), exact: true })).toBeVisible();
}

test.describe('the card app inside the companion host', () => {
  test('a providers user is signed in with the host token and lands on home; nothing goes to localStorage', async ({ page }) => {
    const host = await CompanionHostPage.open(page);
    await expectHome(host.app);
    await expect(host.app.getByText(`Account ending in ${demoAccountNumber.slice(-4)}`)).toBeVisible();
    // The host answered the token question; the app never kept anything in its own origin's storage.
    await expect(host.message('app → host', 'parentApp.accessToken.get').first()).toBeVisible();
    expect(await appLocalStorageKeys(page)).toEqual([]);
    // Nor anywhere else but the router's scroll positions (TanStack Router's scroll restoration).
    const other = await appOtherStorage(page);
    expect(other.sessionStorage.filter((key) => !key.startsWith('tsr-scroll-restoration'))).toEqual([]);
    expect(other).toMatchObject({ indexedDB: [], caches: [] });

    // The same host opened by its other loopback name frames the app and signs in just as well.
    await host.goto(companionHostURL.replace('localhost', '127.0.0.1'));
    await expectHome(host.app);
  });

  test('state is saved to the host without tokens and restored after the host page reloads', async ({ page }) => {
    const host = await CompanionHostPage.open(page);
    await expectHome(host.app);
    await host.app.getByRole('button', { name: 'Español', exact: true }).click();
    await expectHome(host.app, 'es');
    await expect.poll(async () => (await host.savedState())?.locale).toBe('es');
    const saved = (await host.savedState())!;
    expect(saved.accessToken).toBeNull();
    expect(saved.refreshToken).toBeNull();
    expect(JSON.stringify(saved)).not.toMatch(/eyJ/); // no JWT anywhere

    await page.reload();
    await expect(host.frame).toBeVisible();
    await expectHome(host.app, 'es');
    await expect(host.app.locator('html')).toHaveAttribute('lang', 'es');
    expect((await host.savedState())?.fingerprint).toBe(saved.fingerprint);
    expect(await appLocalStorageKeys(page)).toEqual([]);
  });

  test("the companion app's language in its settings starts the card app in it, over the one saved; the frame speaks it too", async ({ page }) => {
    const host = await CompanionHostPage.open(page);
    await expectHome(host.app);
    // English chosen in the card app and saved by the host.
    await host.app.getByRole('button', { name: 'Español', exact: true }).click();
    await expectHome(host.app, 'es');
    await host.app.getByRole('button', { name: 'English', exact: true }).click();
    await expectHome(host.app);
    await expect.poll(async () => (await host.savedState())?.locale).toBe('en');

    await host.setUser({ language: 'es-US' });
    await expectHome(host.app, 'es');
    await expect(host.app.locator('html')).toHaveAttribute('lang', 'es');
    const phone = page.getByRole('region', { name: 'App de beneficios', exact: true });
    await expect(phone).toHaveAttribute('lang', 'es');
    await expect(phone.getByRole('navigation', { name: 'Secciones de la app de beneficios' })).toContainText('Configuración');
    await expect(host.frame).toHaveAttribute('title', 'Tarjeta Providers');

    // Settings that name no language leave the one saved (Spanish, chosen in the app), not the browser's English.
    await host.app.getByRole('button', { name: 'English', exact: true }).click();
    await expectHome(host.app);
    await host.app.getByRole('button', { name: 'Español', exact: true }).click();
    await expectHome(host.app, 'es');
    await expect.poll(async () => (await host.savedState())?.locale).toBe('es');
    await host.setUser({ language: '' });
    await expectHome(host.app, 'es');
    await expect(host.frame).toHaveAttribute('title', 'Providers card');
  });

  test('the device id and EBT account id from the host travel with API calls, and eligible benefits show their content', async ({ page }) => {
    const host = await CompanionHostPage.open(page);
    await expectHome(host.app);
    const deviceId = await host.deviceId();

    const homeCall = page.waitForRequest((request) => request.url() === `${appURL}/api/v1/home`);
    await host.setUser({ eligibleBenefits: ['EBT', 'SSI_SSDI'] });
    const headers = (await homeCall).headers();
    expect(headers['device-uuid']).toBe(deviceId);
    expect(headers['ebt-account-id']).toBe(defaultCompanionUser.ebtAccountId);

    await expectHome(host.app);
    await expect(host.app.getByRole('heading', { name: 'Get SSI or SSDI up to 5 days early' })).toBeVisible();
    await expect(host.app.getByRole('heading', { name: 'Child Tax Credit' })).toHaveCount(0);
  });

  test('open url, copy, notification permission and return-to-host-route reach the host', async ({ page }) => {
    const host = await CompanionHostPage.open(page);
    await expectHome(host.app);

    await host.app.getByRole('button', { name: /File your taxes for free with IRS Free File/ }).click();
    await expect(host.lastOpenedUrl).toHaveText(freeTaxFilingUrl);

    await host.app.getByRole('button', { name: 'Copy account number' }).click();
    // First the message, which goes by itself after 5 s.
    await expect(host.app.getByText('Account number copied.')).toBeVisible();
    await expect(host.lastCopiedText).toHaveText(demoAccountNumber);

    await host.answerPermissionRequestWith('allow');
    await host.app.getByRole('button', { name: 'Turn on notifications' }).click();
    await expect(host.notificationPermission).toHaveValue('ENABLED');
    await expect(host.app.getByRole('button', { name: 'Turn on notifications' })).toHaveCount(0);
    // The answer takes the place and the focus of the button it replaced.
    await expect(host.app.getByRole('status').filter({ hasText: 'Notifications are on.' })).toBeFocused();

    // A change made in the host reaches the app.
    await host.setNotificationPermission('DISABLED');
    await expect(host.app.getByText("Notifications are off. You can turn them on in your phone's settings.")).toBeVisible();

    await host.app.getByRole('button', { name: 'Back to benefits' }).click();
    await expect(host.lastHostRoute).toHaveText('home');
  });

  test('without a companion uuid the user signs in with email and password', async ({ page }) => {
    const host = await CompanionHostPage.open(page);
    await expectHome(host.app);
    const tokenQuestions = await host.message('app → host', 'parentApp.accessToken.get').count();
    await host.setUser({ uuid: '' });
    await expect(host.app.getByLabel('Email', { exact: true })).toBeVisible();
    // The reloaded app never asked for the companion token: there is no providers user to sign in.
    await expect(host.message('host → app', 'reply to parentApp.uuid.get')).toHaveCount(2);
    await expect(host.message('app → host', 'parentApp.accessToken.get')).toHaveCount(tokenQuestions);
  });

  test("when the companion app's sign-in gets no answer, sign-in says so and Try again signs in through it", async ({ page }) => {
    // The card API out of reach for that one call (a dropped connection on a phone).
    let tries = 0;
    let answerRetry = () => {};
    await page.route('**/api/v1/providers/sign-in', async (route) => {
      tries += 1;
      // The retry waits until the test has seen it under way.
      if (tries === 2) await new Promise<void>((resolve) => (answerRetry = resolve));
      return route.abort('internetdisconnected');
    });
    const host = await CompanionHostPage.open(page);
    const problem = host.app.getByRole('alert').filter({ hasText: "We couldn't sign you in automatically." });
    const tryAgain = host.app.getByRole('button', { name: 'Try again' });
    await expect(problem).toBeVisible();
    await expect(host.app.getByLabel('Email', { exact: true })).toBeVisible();

    // Still no answer: the notice stays, with the form (the app is not reloaded: offline that would lose it).
    await tryAgain.click();
    await expect.poll(() => tries).toBe(2);
    // While it signs in the alert is emptied, so the next failure is said again.
    await expect(host.app.getByRole('button', { name: 'Signing in…' })).toHaveAttribute('aria-disabled', 'true');
    await expect(problem).toHaveCount(0);
    answerRetry();
    // Said again, and the button back where the keyboard's focus is.
    await expect(problem).toBeVisible();
    await expect(tryAgain).toBeFocused();
    await expect(host.appLoads).toHaveText('1');

    await page.unroute('**/api/v1/providers/sign-in');
    await tryAgain.click();
    await expectHome(host.app);
    await expect(host.appLoads).toHaveText('1');
  });

  test("when the card API refuses the companion app's token, sign-in says to open the card again from the benefits app, with the way back (axe, 360 px)", async ({ page }) => {
    // An expired companion token, as the card API answers it (server/shared/routeServer.ts).
    await page.route('**/api/v1/providers/sign-in', (route) => route.fulfill({ status: 401, json: { statusCode: 100 } }));
    const host = await CompanionHostPage.open(page);
    await expect(
      host.app.getByRole('alert').filter({ hasText: "We couldn't sign you in through the benefits app. Please go back to the benefits app and open your card again." }),
    ).toBeVisible();
    await expect(host.app.getByLabel('Email', { exact: true })).toBeVisible();
    // A retry would be refused again: none is offered.
    await expect(host.app.getByRole('button', { name: 'Try again' })).toHaveCount(0);
    expect(await axeViolations(appWindow(page)), 'axe violations in the app').toEqual([]);
    expect(await appWindow(page).evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await host.app.getByRole('button', { name: 'Back to benefits' }).click();
    await expect(host.lastHostRoute).toHaveText('home');
  });

  test('a retry of the companion sign-in answered with a refusal starts the app again: a companion user with no card account is offered registration', async ({ page }) => {
    let tries = 0;
    await page.route('**/api/v1/providers/sign-in', (route) => {
      tries += 1;
      return tries === 1 ? route.abort('internetdisconnected') : route.fulfill({ status: 403, json: { statusCode: 3 } });
    });
    const host = await CompanionHostPage.open(page);
    await host.app.getByRole('button', { name: 'Try again' }).click();
    await expect(host.app.getByRole('heading', { name: 'Tell us about yourself' })).toBeVisible();
  });

  test('a retry of the companion sign-in that must reset the unlock code first goes there, as any sign-in does', async ({ page }) => {
    let tries = 0;
    await page.route('**/api/v1/providers/sign-in', async (route) => {
      tries += 1;
      if (tries === 1) return route.abort('internetdisconnected');
      const answer = await route.fetch();
      return route.fulfill({ response: answer, json: { ...(await answer.json()), mustResetUnlockCode: true } });
    });
    const host = await CompanionHostPage.open(page);
    await host.app.getByRole('button', { name: 'Try again' }).click();
    await expect(host.app.getByRole('heading', { name: 'Verify your identity' })).toBeVisible();
    await expect(host.app.getByRole('heading', { name: 'Available balance' })).toHaveCount(0);
  });

  test("the companion app's sign-in problem is not said again once the cardholder signed in with a password and out", async ({ page }) => {
    await page.route('**/api/v1/providers/sign-in', (route) => route.abort('internetdisconnected'));
    const host = await CompanionHostPage.open(page);
    await expect(host.app.getByText("We couldn't sign you in automatically.")).toBeVisible();
    await host.app.getByLabel('Email', { exact: true }).fill('demo@providers.test');
    await host.app.getByLabel('Password', { exact: true }).fill('Providers2026');
    await host.app.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expectHome(host.app);
    await host.app.getByRole('button', { name: 'Sign out', exact: true }).click();
    await expect(host.app.getByLabel('Email', { exact: true })).toBeVisible();
    await expect(host.app.getByText("We couldn't sign you in automatically.")).toHaveCount(0);
  });

  test('a companion user with no card account is offered registration, not let in', async ({ page }) => {
    const host = await CompanionHostPage.open(page);
    await host.setUser({ uuid: '00000000-0000-4000-8000-000000000000' });
    await expect(host.app.getByRole('heading', { name: 'Tell us about yourself' })).toBeVisible();
    await expect(host.app.getByRole('heading', { name: 'Available balance' })).toHaveCount(0);
  });

  test("the detail's Back to activity opens the list where it was, not at the top", async ({ page }) => {
    const host = await CompanionHostPage.open(page);
    await expectHome(host.app);
    await host.app.getByRole('link', { name: 'See all activity' }).click();
    // The list's own rows, once its first page is in (home's recent activity rows look the same).
    const list = host.app.getByRole('region', { name: 'Activity', exact: true });
    await expect(list.getByRole('button', { name: 'Show older activity' })).toBeVisible();
    const rows = list.locator('.activity-link');
    const row = rows.nth(15);
    await row.scrollIntoViewIfNeeded();
    const scrolled = await appWindow(page).evaluate(() => window.scrollY);
    expect(scrolled, 'the list was scrolled down').toBeGreaterThan(300);
    const name = (await row.textContent())!;

    await row.click();
    // Inside the host it opens the list as a new step (the host's history shares the tab's).
    const back = host.app.getByRole('main').getByRole('link', { name: 'Back to activity' });
    await expect(host.app.getByText('Status', { exact: true })).toBeVisible();
    await back.click();
    await expect(host.app.getByRole('heading', { name: 'Activity', exact: true })).toBeVisible();
    await expect.poll(() => appWindow(page).evaluate(() => window.scrollY), { message: 'back on the list where it was' }).toBeGreaterThan(scrolled - 40);
    await expect(rows.nth(15)).toHaveText(name);
  });

  test('home inside the host has no axe violations and fits 360 px', async ({ page }, testInfo) => {
    const host = await CompanionHostPage.open(page);
    await expectHome(host.app);
    await host.setUser({ eligibleBenefits: ['EBT', 'CTC', 'SSI_SSDI'] });
    await expectHome(host.app);
    expect(await axeViolations(appWindow(page)), 'axe violations in the app').toEqual([]);
    const width = await appWindow(page).evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(width).toBeLessThanOrEqual(0);
    // Under the host's own header, the app's is one slim row: the way back, language and sign out.
    const header = await host.app.getByRole('banner').boundingBox();
    expect(header!.height).toBeLessThanOrEqual(48);
    await host.frame.screenshot({ path: path.join(testInfo.project.outputDir, 'screens', 'home-in-companion-host.png') });

    // In Spanish too: "Volver a beneficios" was cut to "Volver a benefi…" at 360 px.
    await host.app.getByRole('button', { name: 'Español', exact: true }).click();
    await expectHome(host.app, 'es');
    const back = host.app.getByRole('button', { name: text('es', 'Back to benefits') });
    expect(await back.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0);
    expect((await host.app.getByRole('banner').boundingBox())!.height).toBeLessThanOrEqual(48);
    // Its focus ring is seen on the header's green and not cut by the frame's top edge (WCAG 1.4.11).
    await host.app.getByRole('button', { name: 'English', exact: true }).focus();
    await page.keyboard.press('Shift+Tab');
    await expect(back).toBeFocused();
    const ring = await focusRing(back);
    expect(ring.contrast).toBeGreaterThanOrEqual(3);
    expect(ring.inside).toBe(true);
  });

  // WCAG 1.4.10 and 1.4.4: a 320 px phone with its text at 200 %, in Spanish (the longer words).
  test('home inside the host fits 320 px with text at 200 % in Spanish: the way back and the buttons wrap', async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 740 });
    const host = await CompanionHostPage.open(page);
    await expectHome(host.app);
    await host.app.getByRole('button', { name: 'Español', exact: true }).click();
    await expectHome(host.app, 'es');
    await appWindow(page).evaluate(() => (document.documentElement.style.fontSize = '200%'));
    // "Turn on notifications" is on home while the companion app has not asked yet.
    await expect(host.app.getByRole('button', { name: text('es', 'Turn on notifications') })).toBeVisible();
    const overflowing = await appWindow(page).evaluate(() =>
      [...document.querySelectorAll('button, a')].filter((element) => element.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5).map((element) => element.textContent),
    );
    expect(overflowing).toEqual([]);
    expect(await appWindow(page).evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  });
});

test.describe('messages from a third origin', () => {
  // The host page only frames the app; the stray frame needs CSP out of the way to exist at all.
  test.use({ bypassCSP: true });

  test('are ignored and reported as a warning', async ({ page, request }) => {
    const rogue = 'http://rogue.test';
    await page.route(`${rogue}/**`, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<script>
          parent.frames['card-app'].postMessage({ protocol: 'providers-card-host/1', type: 'notificationPermission.changed', payload: { permission: 'DISABLED' } }, '*');
        </script>`,
      }),
    );
    const host = await CompanionHostPage.open(page);
    await expectHome(host.app);
    const prompt = host.app.getByRole('button', { name: 'Turn on notifications' });
    await expect(prompt).toBeVisible();

    await page.evaluate((url) => {
      const frame = document.createElement('iframe');
      frame.src = url;
      frame.title = 'stray';
      document.body.append(frame);
    }, `${rogue}/post`);

    await expect
      .poll(async () => {
        const answer = await request.get('/sandbox/error-reports');
        const { reports } = (await answer.json()) as { reports: { message: string; context: Record<string, unknown> }[] };
        return reports.some((report) => report.message === 'Message from an unknown origin ignored' && report.context.origin === rogue);
      })
      .toBe(true);
    // No state change: the prompt is still there and no "off" notice appeared.
    await expect(prompt).toBeVisible();
    await expect(host.app.getByText("Notifications are off. You can turn them on in your phone's settings.")).toHaveCount(0);
  });
});
