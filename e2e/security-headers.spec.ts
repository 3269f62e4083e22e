/** Every response (document, assets, API) carries a Content-Security-Policy that limits framing. */
import { expect, test, type Response } from '@playwright/test';
import { SignInPage } from './pages/session/SignInPage.ts';
import { appURL } from './support/origins.ts';

function frameAncestors(csp: string | undefined): string | undefined {
  return csp
    ?.split(';')
    .map((directive) => directive.trim())
    .find((directive) => directive.startsWith('frame-ancestors '));
}

test('the sign-in document and everything it loads carry a CSP with frame-ancestors', async ({ page }) => {
  const responses: Response[] = [];
  page.on('response', (response) => responses.push(response));

  const document = await page.goto('/signin');
  expect(document?.status()).toBe(200);
  const csp = document?.headers()['content-security-policy'];
  const ancestors = frameAncestors(csp);
  expect(ancestors, `frame-ancestors in ${csp}`).toBeDefined();
  expect(ancestors).toContain("'self'");
  expect(ancestors).not.toContain('*');
  await new SignInPage(page).expectShown();

  const sameOrigin = responses.filter((response) => response.url().startsWith(`${appURL}/`));
  expect(sameOrigin.length).toBeGreaterThan(1);
  for (const response of sameOrigin) {
    const headers = await response.allHeaders();
    expect(frameAncestors(headers['content-security-policy']), `CSP frame-ancestors on ${response.url()}`).toBe(ancestors);
  }
});

test('API answers carry the same CSP, errors included', async ({ request }) => {
  const unauthorized = await request.get('/api/v1/home');
  expect(unauthorized.status()).toBe(401);
  expect(frameAncestors(unauthorized.headers()['content-security-policy'])).toMatch(/^frame-ancestors 'self'/);

  const missing = await request.get('/api/v1/no-such-call');
  expect(missing.status()).toBe(404);
  expect(frameAncestors(missing.headers()['content-security-policy'])).toMatch(/^frame-ancestors 'self'/);
});

test('the inline stylesheet applies under the CSP, and the browser refuses nothing', async ({ page }) => {
  const refused: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
  });

  await page.goto('/signin');
  await new SignInPage(page).expectShown();

  // The app's stylesheet is in the page itself, not linked, and its page colour (--color-page) applies.
  const inlined = await page.evaluate(() => [...document.head.querySelectorAll('style')].some((style) => style.textContent?.includes('--color-page')));
  expect(inlined).toBe(true);
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor)).toBe('rgb(243, 246, 244)');
  expect(refused).toEqual([]);
});
