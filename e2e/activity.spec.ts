/**
 * Activity through the real server at phone size, on a fresh cardholder's account funded through the
 * sandbox (so no other spec's demo balance moves): a purchase appears as pending, then settles for less
 * (and, in Spanish, one for more: a tip);
 * home explains the hold meanwhile; a transaction's detail opens from an older page and going back keeps
 * the list where it was; axe on the list and the detail, in English and in Spanish; the fees charged
 * last month and this year under the list; the first rows come in without shifting what is on screen.
 */
import { expect, test, type APIRequestContext } from '@playwright/test';
import { fees } from '../contract/shared/fees.ts';
import { ActivityPage, TransactionDetailPage } from './pages/activity/ActivityPage.ts';
import { ErrorPage } from './pages/ErrorPage.ts';
import { HomePage } from './pages/home/HomePage.ts';
import { expectAccessible } from './support/accessibility.ts';
import { openAccountViaApi } from './support/accounts.ts';
import { asCardholder } from './support/cardholderWithCard.ts';
import { answerNothing } from './support/network.ts';
import { expectAppFilesKept } from './support/serviceWorker.ts';
import { seedStoredState } from './support/storage.ts';
import { dollars, escapeRegExp, heardDollars, signedDollars } from './support/text.ts';

// Offline, activity opens from the service worker's copies; this spec's other tests run with it too, as
// on a phone (the browser tests block it elsewhere: playwright.config.ts).
test.use({ serviceWorkers: 'allow' });

/** The US Eastern year and month (1–12) of an instant: the months statements and the fee totals count by. */
const easternMonth = (at: Date) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York', year: 'numeric', month: '2-digit' }).format(at).split('-').map(Number) as [number, number];

/** POST /sandbox/events: the world moves money; answers the transaction it made or resolved. */
async function moneyEvent(request: APIRequestContext, event: Record<string, unknown>): Promise<string> {
  const response = await request.post('/sandbox/events', { data: event });
  expect(response.status(), `sandbox event ${String(event.type)}`).toBe(200);
  return ((await response.json()) as { transactionId: string }).transactionId;
}

test('a purchase is held, then settles; an older transaction opens and back keeps the list where it was', async ({ page, request }) => {
  const { applicant, tokens } = await openAccountViaApi(request);
  const email = applicant.email;
  await moneyEvent(request, { type: 'deposit', email, amountCents: 50_000, payer: 'Valley Transit', payee: `${applicant.firstName} ${applicant.lastName}` });
  // More than one page of activity (25 rows), each purchase at its own store.
  for (let store = 1; store <= 30; store += 1) {
    await moneyEvent(request, { type: 'card.authorization', email, amountCents: 100 + store, merchant: `Corner Store ${store}` }).then((id) =>
      moneyEvent(request, { type: 'card.settlement', transactionId: id }),
    );
  }
  const held = await moneyEvent(request, { type: 'card.authorization', email, amountCents: 1240, merchant: 'Tower Cafe', location: 'Fresno, CA' });

  await seedStoredState(page, { accessToken: tokens.access, refreshToken: tokens.refresh, locale: 'en' });
  const home = await HomePage.open(page);
  await expect(home.screen.getByText(`${dollars(1240)} on hold from a purchase at Tower Cafe`)).toBeVisible();

  await home.screen.getByRole('link', { name: 'See all activity' }).click();
  const activity = new ActivityPage(page);
  await activity.expectShown();
  // The pressed link went with home: the new screen's heading has the keyboard's focus (src/app/AppShell.tsx).
  await expect(activity.title).toBeFocused();
  const cafe = activity.rowLink('Purchase at Tower Cafe');
  await expect(cafe).toContainText(activity.pendingBadge);
  await expect(cafe).toContainText(`-${dollars(1240)}`);
  await expectAccessible(page);

  // The store settles for less. The list still shows the hold, but its detail asks the card API and
  // shows what it is now.
  await moneyEvent(request, { type: 'card.settlement', transactionId: held, amountCents: 1100 });
  const settled = await activity.open(cafe);
  await expect(settled.amount).toHaveText(signedDollars(-1100));
  await expect(settled.value('Status')).toHaveText('Completed');
  // When it was completed, and where the $1.40 held and not taken went.
  await expect(settled.value('Date completed')).toBeVisible();
  await expect(
    page.getByText(`${dollars(1240)} was held at first. The merchant completed the purchase for less, and the ${dollars(140)} left over went back to your balance.`),
  ).toBeVisible();
  // The change from the list's "Pending" is in a live region, so a screen reader says it.
  const live = page.getByRole('main').locator('[aria-live="polite"][aria-atomic="true"]');
  await expect(live.filter({ hasText: 'Completed' })).toHaveCount(1);
  await expect(live.filter({ hasText: signedDollars(-1100) })).toHaveCount(1);
  await page.goBack();
  await activity.expectShown();
  // After a refresh the row keeps its place, no longer pending.
  await activity.refresh();
  await expect(activity.rowLinks.first()).toContainText('Purchase at Tower Cafe');
  await expect(cafe).not.toContainText(activity.pendingBadge);
  await expect(cafe).toContainText(`-${dollars(1100)}`);

  // An older page, then a transaction from it.
  await expect(activity.rowLinks).toHaveCount(25);
  // By keyboard: the button gives way to the older rows, and the focus goes to the first of them.
  await activity.showOlderButton.focus();
  await page.keyboard.press('Enter');
  await expect(activity.rowLinks).toHaveCount(32);
  await expect(activity.screen.getByText("That's all of your activity.")).toBeVisible();
  await expect(activity.rowLinks.nth(25)).toBeFocused();
  const oldest = activity.rowLink('Deposit from Valley Transit');
  await oldest.scrollIntoViewIfNeeded();
  const scrolled = await page.evaluate(() => window.scrollY);
  expect(scrolled, 'the list was scrolled down to its oldest row').toBeGreaterThan(300);

  const detail = await activity.open(oldest);
  await expect(detail.amount).toHaveText(signedDollars(50_000));
  await expect(detail.screen).toMatchAriaSnapshot(`- paragraph: ${JSON.stringify(`Amount: ${heardDollars(50_000)}`)}`);
  await expect(detail.value('Status')).toHaveText('Completed');
  await expect(detail.value('From')).toHaveText('Valley Transit');
  await expectAccessible(page);

  await page.goBack();
  await activity.expectShown();
  await expect(activity.rowLinks, 'the older page is still there').toHaveCount(32);
  await expect.poll(() => page.evaluate(() => window.scrollY), { message: 'back on the list where it was' }).toBeGreaterThan(scrolled - 40);
  // And the keyboard is where it was too: on the row opened, not at the top.
  await expect(oldest).toBeFocused();

  // The detail's own "Back to activity" does the same.
  await activity.open(oldest);
  await page.getByRole('main').getByRole('link', { name: 'Back to activity' }).click();
  await activity.expectShown();
  await expect(activity.rowLinks, 'the older page is still there').toHaveCount(32);
  await expect.poll(() => page.evaluate(() => window.scrollY), { message: 'back on the list where it was' }).toBeGreaterThan(scrolled - 40);
  await expect(oldest).toBeFocused();
});

test('activity and a pending transaction read in Spanish, axe-clean', async ({ page, request }) => {
  const { applicant, tokens } = await openAccountViaApi(request);
  await moneyEvent(request, { type: 'deposit', email: applicant.email, amountCents: 200_000, payer: 'Fresno County DSS', payee: `${applicant.firstName} ${applicant.lastName}` });
  const hold = await moneyEvent(request, { type: 'card.authorization', email: applicant.email, amountCents: 184_512, merchant: 'Save Mart', location: 'Fresno, CA' });
  // A physical card ordered: its fee is this month's, and none was charged last month.
  const orderedIn = easternMonth(new Date());
  expect((await asCardholder(request, tokens, 'POST', '/order-card', {}, { 'Idempotency-Key': crypto.randomUUID() })).status).toBe(200);
  await seedStoredState(page, { accessToken: tokens.access, refreshToken: tokens.refresh, locale: 'es' });

  const askedFrom = easternMonth(new Date());
  const activity = await ActivityPage.open(page, 'es');
  await activity.expectLanguage('es');
  await expect(activity.rowLink('Compra en Save Mart')).toContainText('Pendiente');
  await expect(activity.rowLink('Depósito de Fresno County DSS')).toBeVisible();
  // Heard with the sign in words, and not as "-$8.45" too.
  await expect(activity.rowLink('Compra en Save Mart')).toHaveAccessibleName(
    new RegExp(`^(?!.*${escapeRegExp(signedDollars(-184_512, 'es'))}).*${escapeRegExp(heardDollars(-184_512, 'es'))}$`),
  );
  await expect(activity.screen.getByText('Estos son todos sus movimientos.')).toBeVisible();
  // Regulation E's fee totals, by US Eastern months as statements count them: for the month the page
  // was asked in (read on both sides of the asking, so a month's end in New York meanwhile still holds).
  const feeLines = ([year, month]: [number, number]) => {
    const last: [number, number] = month === 1 ? [year - 1, 12] : [year, month - 1];
    const lastName = new Intl.DateTimeFormat('es', { timeZone: 'UTC', month: 'long', year: 'numeric' }).format(new Date(Date.UTC(last[0], last[1] - 1, 15)));
    const feeIn = (inPeriod: boolean) => dollars(inPeriod ? fees.physicalCard.cents : 0, 'es');
    return (
      `Cargos que le cobramos en ${lastName}: ${feeIn(orderedIn.join() === last.join())}` +
      `Cargos que le cobramos en lo que va de ${year}: ${feeIn(orderedIn[0] === year)}`
    );
  };
  const shownIn = [feeLines(askedFrom), feeLines(easternMonth(new Date()))].map(escapeRegExp).join('|');
  await expect(activity.screen.locator('.activity-fees')).toHaveText(new RegExp(`^(${shownIn})`));
  // The browser keeps Pacific time (playwright.config.ts): the months are said to be New York's.
  await expect(activity.screen.getByText('Los meses se cuentan en la hora del Este de EE. UU. (Nueva York), como en sus estados de cuenta.')).toBeVisible();
  await expectAccessible(page);

  const detail = await activity.open(activity.rowLink('Compra en Save Mart'));
  await expect(detail.amount).toHaveText(signedDollars(-184_512, 'es'));
  await expect(detail.screen).toMatchAriaSnapshot(`- paragraph: ${JSON.stringify(`Monto: ${heardDollars(-184_512, 'es')}`)}`);
  await expect(detail.value('Status')).toHaveText('Pendiente');
  await expect(detail.screen.getByText('¿Por qué está pendiente?')).toBeVisible();
  await expect(detail.screen.getByText(/El monto final puede ser menor, o mayor si se agrega una propina\.$/)).toBeVisible();
  await expectAccessible(page);
  // Large text (200%): a value that no longer fits beside its label goes under it, rather than break
  // mid-word beside it; one that still fits stays beside it, on one line.
  const valuesBesideLabels = () =>
    detail.screen.locator('.detail-list > div').evaluateAll((rows) =>
      rows.map((row) => {
        const value = row.querySelector('dd')!;
        const range = document.createRange();
        range.selectNodeContents(value);
        const lines = new Set([...range.getClientRects()].map((line) => Math.round(line.top))).size;
        return { beside: value.getBoundingClientRect().top < row.querySelector('dt')!.getBoundingClientRect().bottom, lines };
      }),
    );
  expect((await valuesBesideLabels()).every((row) => row.beside)).toBe(true);
  await page.evaluate(() => document.documentElement.style.setProperty('font-size', '200%'));
  await expect.poll(async () => (await valuesBesideLabels()).filter((row) => !row.beside).length).toBeGreaterThan(0);
  expect((await valuesBesideLabels()).filter((row) => row.beside && row.lines > 1)).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  // The amount stays on one line (a four-digit one was cut in two: "-$1,845.1 / 2").
  const amountLines = await detail.amount.evaluate((amount) => {
    const range = document.createRange();
    range.selectNodeContents(amount);
    return new Set([...range.getClientRects()].map((line) => Math.round(line.top))).size;
  });
  expect(amountLines).toBe(1);

  // The store lets the hold go: it leaves activity, and its detail says so rather than only "not found".
  await page.evaluate(() => document.documentElement.style.removeProperty('font-size'));
  await moneyEvent(request, { type: 'card.release', transactionId: hold });
  await page.reload();
  await expect(detail.screen.getByRole('alert')).toHaveText(
    'No encontramos este movimiento en su cuenta.Una retención que se liberó, o que terminó sin que se completara la compra, ya no aparece en la lista: no se descontó dinero de su cuenta por ella.',
  );
  await expectAccessible(page);

  // A café adds a tip: the store settles for more than it held, and the detail says what the extra took.
  const tipped = await moneyEvent(request, { type: 'card.authorization', email: applicant.email, amountCents: 2000, merchant: 'Tower Cafe' });
  await moneyEvent(request, { type: 'card.settlement', transactionId: tipped, amountCents: 2350 });
  await page.goto(`/transactions/detail?id=${tipped}`);
  await expect(detail.amount).toHaveText(signedDollars(-2350, 'es'));
  await expect(detail.value('Status')).toHaveText('Completado');
  await expect(
    detail.screen.getByText(
      `Al principio se retuvo un monto de ${dollars(2000, 'es')}. El comercio completó la compra por un monto mayor (por ejemplo, con una propina), y la diferencia de ${dollars(350, 'es')} se descontó de su saldo.`,
    ),
  ).toBeVisible();
  await expectAccessible(page);
});

test('offline, home and activity show the last-known balance and transactions with their time; sign-out forgets them', async ({
  page,
  context,
  request,
}) => {
  const { applicant, tokens } = await openAccountViaApi(request);
  await moneyEvent(request, { type: 'deposit', email: applicant.email, amountCents: 20_000, payer: 'Valley Transit', payee: `${applicant.firstName} ${applicant.lastName}` });
  await moneyEvent(request, { type: 'card.authorization', email: applicant.email, amountCents: 845, merchant: 'Save Mart' });
  await seedStoredState(page, { accessToken: tokens.access, refreshToken: tokens.refresh, locale: 'en' });

  // The worker is registered only once the first screen is shown and the page has loaded: its install
  // would take the phone's cores from that screen.
  await page.addInitScript(() => {
    const workers = navigator.serviceWorker;
    const register = workers.register.bind(workers);
    workers.register = (...args: Parameters<typeof register>) => {
      const seen = window as { registeredWhen?: { firstScreenShown: boolean; loaded: boolean } };
      seen.registeredWhen ??= { firstScreenShown: !document.getElementById('loader-overlay'), loaded: document.readyState === 'complete' };
      return register(...args);
    };
  });
  // Online once: home, then activity, so both are kept and the app's files are on the phone.
  const home = await HomePage.open(page);
  await home.screen.getByRole('link', { name: 'See all activity' }).click();
  const activity = new ActivityPage(page);
  await activity.expectShown();
  // A detail opened once, so its screen's code is on the phone.
  await activity.open(activity.rowLink('Purchase at Save Mart'));
  await page.goBack();
  await activity.expectShown();
  await expectAppFilesKept(page);
  expect(await page.evaluate(() => (window as { registeredWhen?: unknown }).registeredWhen)).toEqual({ firstScreenShown: true, loaded: true });

  await context.setOffline(true);
  await page.goto('/home');
  const offlineHome = new HomePage(page);
  await expect(offlineHome.screen.getByText(/We couldn't get your latest account information\. This is what your account showed on/)).toBeVisible();
  await offlineHome.expectBalance(dollars(20_000 - 845));
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await offlineHome.screen.getByRole('link', { name: 'See all activity' }).click();
  const offlineActivity = new ActivityPage(page);
  await expect(offlineActivity.screen.getByText(/We couldn't get your latest account information/)).toBeVisible();
  await expect(offlineActivity.rowLink('Purchase at Save Mart')).toContainText('Pending');
  await expectAccessible(page);
  // Its detail shows the list's copy, said to be unchecked: it could have settled since.
  const offlineDetail = await offlineActivity.open(offlineActivity.rowLink('Purchase at Save Mart'));
  await expect(offlineDetail.screen.getByRole('alert').filter({ hasText: "We couldn't check this transaction for changes" })).toContainText(
    "We couldn't check this transaction for changes: this is how your activity showed it. Check your connection and try again.",
  );
  await expect(offlineDetail.value('Status')).toHaveText('Pending');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expectAccessible(page, 'an unchecked detail');
  await page.goBack();

  // Statements were never opened, so their code is not on the phone: the screen says the connection is
  // what to check (not "an unexpected error"), inside the app's frame with its way home.
  await page.goBack();
  await offlineHome.screen.getByRole('link', { name: 'Statements' }).click();
  await new ErrorPage(page, 'en').expectShown();
  await expectAccessible(page, 'a screen not downloaded');

  await context.setOffline(false);
  await offlineActivity.signOutButton.click();
  await expect(page).toHaveURL(/\/signin/);
  expect(await page.evaluate(() => localStorage.getItem('providers-card:last-known')), 'nothing about the account is left').toBeNull();
});

test("a transaction that could not be loaded: the notice blames the connection only while the phone is offline or no answer came", async ({ page, context, request }) => {
  const { applicant, tokens } = await openAccountViaApi(request);
  const id = await moneyEvent(request, { type: 'deposit', email: applicant.email, amountCents: 5_000, payer: 'Valley Transit', payee: `${applicant.firstName} ${applicant.lastName}` });
  await seedStoredState(page, { accessToken: tokens.access, refreshToken: tokens.refresh, locale: 'en' });
  // A gateway's error page: the phone is online, the server's answer is not the card API's.
  const isDetail = (url: URL) => url.pathname === '/api/v1/transaction';
  await page.route(isDetail, (route) => route.fulfill({ status: 502, contentType: 'text/html', body: '<html>Bad gateway</html>' }));
  await page.goto(`/transactions/detail?id=${id}`);
  // An answer without a statusCode opens the generic error modal (spec §8); the screen says what failed.
  // Closed by keyboard, the modal would give the focus back to what had it before, nothing: the
  // notice's Try again takes it.
  const ok = page.getByRole('dialog').getByRole('button', { name: 'OK' });
  await expect(ok).toBeFocused();
  await page.keyboard.press('Enter');
  const detail = new TransactionDetailPage(page);
  const notice = detail.screen.getByRole('alert');
  await expect(notice).toContainText("We couldn't load this transaction. Please try again.");
  await expect(notice.getByRole('button', { name: 'Try again' })).toBeFocused();
  await expectAccessible(page, 'the failed transaction');

  await context.setOffline(true);
  await expect(notice).toContainText("We couldn't load this transaction. Check your connection and try again.");
  await context.setOffline(false);
  await expect(notice).toContainText("We couldn't load this transaction. Please try again.");

  // No answer at all, the phone still online (Wi-Fi without internet): the connection is the likely cause.
  await page.unroute(isDetail);
  await page.route(isDetail, (route) => route.abort('internetdisconnected'));
  await notice.getByRole('button', { name: 'Try again' }).press('Enter');
  // Try again went with its notice and gave the focus to the heading; the error modal that came with the
  // failure gives it back there.
  await expect(ok).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(notice).toContainText("We couldn't load this transaction. Check your connection and try again.");
  await expect(page.getByRole('heading', { level: 1 })).toBeFocused();

  await page.unroute(isDetail);
  await notice.getByRole('button', { name: 'Try again' }).press('Enter');
  await expect(detail.amount).toHaveText(signedDollars(5_000));
  // Try again went with its notice: the heading kept the focus, now the transaction's title.
  await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
});

test('the first rows come in without moving what is on screen (layout shift under 0.1)', async ({ page, request }) => {
  const { applicant, tokens } = await openAccountViaApi(request);
  await moneyEvent(request, { type: 'deposit', email: applicant.email, amountCents: 20_000, payer: 'Valley Transit', payee: `${applicant.firstName} ${applicant.lastName}` });
  await moneyEvent(request, { type: 'card.authorization', email: applicant.email, amountCents: 1_240, merchant: 'Tower Cafe' });
  await seedStoredState(page, { accessToken: tokens.access, refreshToken: tokens.refresh, locale: 'en' });
  await page.addInitScript(() => {
    const shifts: number[] = [];
    (window as unknown as { shifts: number[] }).shifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) if (!entry.hadRecentInput) shifts.push(entry.value);
    }).observe({ type: 'layout-shift', buffered: true });
  });
  // The rows come only when this test lets them, as over a slow connection.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route((url) => url.pathname === '/api/v1/transactions', async (route) => {
    await released;
    await route.continue();
  });
  await page.goto('/transactions');
  await expect(page.getByRole('status', { name: 'Loading your activity' })).toBeVisible();
  await expect(page.getByText(/is on hold for purchases/)).toBeVisible();
  // Nothing under the loading rows yet that their arrival would push down; the list's end's live
  // region is there already, empty, so what it says once they come is heard.
  await expect(page.getByRole('link', { name: 'Monthly statements' })).toHaveCount(0);
  const listEnd = page.getByRole('main').locator('p[role="status"]');
  await expect(listEnd).toHaveText('');
  release();
  await expect(page.getByText('Purchase at Tower Cafe')).toBeVisible();
  await expect(listEnd).toHaveText("That's all of your activity.");
  await expect(page.getByRole('link', { name: 'Monthly statements' })).toBeVisible();
  const shifted = await page.evaluate(() => (window as unknown as { shifts: number[] }).shifts.reduce((sum, value) => sum + value, 0));
  expect(shifted, 'cumulative layout shift').toBeLessThan(0.1);
});

test('a weak signal: with no answer after a few seconds, home shows the last-known balance with its time meanwhile, and Try again asks anew', async ({ page, request }) => {
  const { applicant, tokens } = await openAccountViaApi(request);
  const payee = `${applicant.firstName} ${applicant.lastName}`;
  await moneyEvent(request, { type: 'deposit', email: applicant.email, amountCents: 20_000, payer: 'Valley Transit', payee });
  await seedStoredState(page, { accessToken: tokens.access, refreshToken: tokens.refresh, locale: 'en' });
  const home = await HomePage.open(page);
  await home.expectBalance(dollars(20_000));

  // The signal weakens: GET /home goes out and nothing comes back (the call's own limit is two minutes).
  const { signalBack } = await answerNothing(page, '/api/v1/home');
  await page.reload();
  const notice = home.screen.getByText(/We couldn't get your latest account information\. This is what your account showed on/);
  await expect(notice).toBeVisible({ timeout: 15_000 });
  await home.expectBalance(dollars(20_000));
  await expect(home.screen.getByRole('button', { name: 'Refreshing…' })).toBeVisible();
  await expectAccessible(page, 'home from its copy while the answer is slow');

  // The signal is back; the call that went out stays unanswered, and Try again asks anew.
  signalBack();
  await moneyEvent(request, { type: 'deposit', email: applicant.email, amountCents: 1_000, payer: 'Valley Transit', payee });
  await home.screen.getByRole('button', { name: 'Try again' }).click();
  await home.expectBalance(dollars(21_000));
  await expect(notice).toHaveCount(0);
});

test('a weak signal on activity: with no newest page after a few seconds, its last-known rows show with their time meanwhile', async ({ page, request }) => {
  const { applicant, tokens } = await openAccountViaApi(request);
  const payee = `${applicant.firstName} ${applicant.lastName}`;
  await moneyEvent(request, { type: 'deposit', email: applicant.email, amountCents: 20_000, payer: 'Valley Transit', payee });
  await seedStoredState(page, { accessToken: tokens.access, refreshToken: tokens.refresh, locale: 'en' });
  // Online once, so the newest page is kept.
  const home = await HomePage.open(page);
  await home.screen.getByRole('link', { name: 'See all activity' }).click();
  const activity = new ActivityPage(page);
  await activity.expectShown();
  await expect(activity.screen.getByRole('link', { name: /Valley Transit/ })).toBeVisible();

  // The signal weakens: the newest page goes out and nothing comes back.
  const { signalBack } = await answerNothing(page, '/api/v1/transactions');
  await page.reload();
  const notice = activity.screen.getByText(/We couldn't get your latest account information\. This is what your account showed on/);
  await expect(notice).toBeVisible({ timeout: 15_000 });
  await expect(activity.screen.getByRole('link', { name: /Valley Transit/ })).toBeVisible();
  await expectAccessible(page, 'activity from its copy while the newest page is slow');

  signalBack();
  await moneyEvent(request, { type: 'deposit', email: applicant.email, amountCents: 1_000, payer: 'Fresno County DSS', payee });
  await notice.locator('..').getByRole('button', { name: 'Try again' }).click();
  await expect(activity.screen.getByRole('link', { name: /Fresno County DSS/ })).toBeVisible();
  await expect(notice).toHaveCount(0);
});
