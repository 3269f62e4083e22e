/**
 * Statements through the real server at phone size, as the demo cardholder (months of history; no
 * spec moves her money): the months are listed newest first, and only the current one says it is not
 * over yet; the latest month's PDF downloads and says the closing balance the screen shows, her masked
 * account number and the partner bank; the screen is axe-clean in English and in Spanish.
 */
import { expect, test } from '@playwright/test';
import { partnerBank } from '../contract/shared/partnerBank.ts';
import { formatMonth } from '../src/shared/format/date.ts';
import { pdfText } from '../tests/support/pdfText.ts';
import { StatementsPage } from './pages/statements/StatementsPage.ts';
import { expectAccessible } from './support/accessibility.ts';
import { signInViaApi } from './support/api.ts';
import { seedStoredState } from './support/storage.ts';
import { seenText } from './support/text.ts';
import { routeOnce } from './support/network.ts';

test("the latest month's PDF downloads and says the closing balance the screen shows; after a failed download, Try again",  async ({ page, request }) => {
  const tokens = await signInViaApi(request);
  await seedStoredState(page, { accessToken: tokens.access, refreshToken: tokens.refresh, locale: 'en' });
  const statements = await StatementsPage.open(page);
  // The tab's title says what the heading says.
  await expect(page).toHaveTitle('Monthly statements · Providers card');
  expect(await statements.months.count(), 'four months of history and this one').toBeGreaterThanOrEqual(4);
  await expectAccessible(page);

  const latest = statements.months.first();
  await expect(latest.getByText('This month is not over yet: these are your balances so far.')).toBeVisible();
  // The months are US Eastern's, which a cardholder elsewhere near a month's end would otherwise not know.
  await expect(page.getByText(/^Statements use US Eastern Time \(New York\)\. In another time zone/)).toBeVisible();
  await expect(statements.months.nth(1).getByText('This month is not over yet', { exact: false })).toHaveCount(0);
  // The demo's purchase on hold: why this month's closing balance is above home's available balance.
  await expect(latest.getByText(/^\$[\d,]+\.\d\d is on hold for purchases that haven't settled yet\. It is already out of your available balance/)).toBeVisible();
  await expect(statements.months.nth(1).getByText('is on hold', { exact: false })).toHaveCount(0);
  const closing = await seenText(statements.balance(latest, 'Closing balance'));
  const { fileName, bytes } = await statements.download(latest);
  // The button kept the focus through the download (unavailable meanwhile, not disabled).
  await expect(await statements.downloadButton(latest)).toBeFocused();
  // The file is named by the month the screen shows (read from it: a clock read here could be a month on).
  const month = /^providers-statement-(\d{4}-\d{2})\.pdf$/.exec(fileName)?.[1] ?? '';
  expect(formatMonth(month, 'en', 'heading')).toBe(await statements.monthName(latest));
  const text = await pdfText(bytes);
  expect(text).toContain('Monthly statement');
  expect(text).toContain(await statements.monthName(latest));
  expect(text).toMatch(new RegExp(`Closing balance\\s+${closing.replace(/[$.]/g, '\\$&')}`));
  expect(text).toContain('This month is not over yet');
  expect(text.replace(/\s+/g, ' ')).toContain('Dates and months here are in US Eastern Time (New York).');
  expect(text).toContain('••••5678');
  expect(text).toContain(partnerBank.name);
  await expectAccessible(page);

  // A gateway's error page for the PDF, once: the month says so, and its Try again, by keyboard,
  // downloads it with the focus back on the month's Download PDF (the notice goes).
  const isPdf = (url: URL) => url.pathname === '/api/v1/statement';
  await routeOnce(page, isPdf, (route) => route.fulfill({ status: 502, contentType: 'text/html', body: '<html>Bad gateway</html>' }));
  await (await statements.downloadButton(latest)).click();
  const monthName = await statements.monthInSentence(latest);
  const notice = latest.getByRole('alert');
  await expect(notice).toHaveText(`We couldn't download your statement for ${monthName}. Please try again.Try again`);
  await expectAccessible(page, 'the failed download');
  const downloaded = page.waitForEvent('download');
  await notice.getByRole('button', { name: 'Try again' }).press('Enter');
  await expect(latest.getByRole('status')).toHaveText(`Your statement for ${monthName} has downloaded.`);
  expect((await downloaded).suggestedFilename()).toBe(`providers-statement-${month}.pdf`);
  await expect(notice).toHaveCount(0);
  await expect(await statements.downloadButton(latest)).toBeFocused();
});

test('the statements read in Spanish, axe-clean', async ({ page, request }) => {
  const tokens = await signInViaApi(request);
  await seedStoredState(page, { accessToken: tokens.access, refreshToken: tokens.refresh, locale: 'es' });
  const statements = await StatementsPage.open(page, 'es');
  await expect(page).toHaveTitle('Estados de cuenta mensuales · Tarjeta Providers');
  await statements.expectLanguage('es');
  const latest = statements.months.first();
  await expect(statements.balance(latest, 'Closing balance')).toBeVisible();
  await expect(latest.getByText('Este mes aún no termina: estos son sus saldos hasta ahora.')).toBeVisible();
  await expect(page.getByText(/^Los estados de cuenta usan la hora del Este de EE\. UU\. \(Nueva York\)\. En otra zona horaria/)).toBeVisible();
  await expect(latest.getByText(/^Hay \$[\d,]+\.\d\d en retención por compras que aún no se completan\. Ese dinero ya se descontó de su saldo disponible/)).toBeVisible();
  await expect(await statements.downloadButton(latest)).toBeVisible();
  await expect(latest.getByRole('heading', { level: 2 })).toHaveText(/^[A-ZÁÉÍÓÚ][a-záéíóú]+ de \d{4}$/);
  await statements.expectBalancesBesideLabels(latest);
  await expectAccessible(page);
  const { fileName, bytes } = await statements.download(latest);
  const month = /^providers-estado-de-cuenta-(\d{4}-\d{2})\.pdf$/.exec(fileName)?.[1] ?? '';
  expect(formatMonth(month, 'es', 'heading')).toBe(await statements.monthName(latest));
  const text = await pdfText(bytes);
  expect(text).toContain('Estado de cuenta mensual');
  expect(text.replace(/\s+/g, ' ')).toContain('Las fechas y los meses de este estado de cuenta están en la hora del Este de EE. UU. (Nueva York).');
});
