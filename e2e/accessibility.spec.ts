/**
 * axe (WCAG 2.0/2.1 A and AA, WCAG 2.2 AA) on sign-in, unlock and home in both languages, no
 * sideways scrolling at 360 px, and a phone screenshot of each into test-results/screens/.
 */
import AxeBuilder from '@axe-core/playwright';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { HomePage } from './pages/home/HomePage.ts';
import { SignInPage } from './pages/session/SignInPage.ts';
import { UnlockPage } from './pages/session/UnlockPage.ts';
import type { AppPage } from './pages/AppPage.ts';
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

      const results = await new AxeBuilder({ page })
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
        .analyze();
      const summary = results.violations.map((v) => ({
        rule: v.id,
        impact: v.impact,
        help: v.help,
        targets: v.nodes.map((node) => node.target.join(' ')),
      }));
      expect(summary, 'axe violations').toEqual([]);

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
