/** An address outside the route table: the not-found screen inside the app, with its way home. */
import { expect, type Locator, type Page } from '@playwright/test';
import type { Locale } from '../support/catalog.ts';
import { AppPage } from './AppPage.ts';
import { HomePage } from './home/HomePage.ts';
import { SignInPage } from './session/SignInPage.ts';

export class NotFoundPage extends AppPage {
  /** Opens `path` (not a route) and waits for the screen; the address stays as typed. */
  static async open(page: Page, path: string, locale: Locale = 'en'): Promise<NotFoundPage> {
    await page.goto(path);
    const notFound = new NotFoundPage(page, locale);
    await notFound.expectShown();
    await expect(page).toHaveURL((url) => url.pathname === path);
    return notFound;
  }

  get heading(): Locator {
    return this.page.getByRole('main').getByRole('heading', { level: 1, name: this.t("We can't find this page."), exact: true });
  }

  get homeLink(): Locator {
    return this.page.getByRole('main').getByRole('link', { name: this.t('Go to home'), exact: true });
  }

  /**
   * Shown. Its heading takes the focus only once the page has had a tap or a key (useHeadingFocus), and
   * Playwright's own calls into the page count as one, so whether this first screen's heading has it
   * depends on timing here: tests/flows/routes.test.tsx checks it.
   */
  async expectShown(): Promise<void> {
    await expect(this.heading).toBeVisible();
    await expect(this.page.getByRole('main').getByText(this.t('The address may be mistyped, or this page may no longer exist.'))).toBeVisible();
  }

  /** Follows the way home with a session: home opens. */
  async goHome(): Promise<HomePage> {
    await this.homeLink.click();
    const home = new HomePage(this.page, this.locale);
    await home.expectShown();
    return home;
  }

  /** Follows the way home without a session: home's guard asks for a sign-in, remembering home. */
  async goHomeSignedOut(): Promise<SignInPage> {
    await this.homeLink.click();
    const signIn = new SignInPage(this.page, this.locale);
    await signIn.expectShown();
    await expect(this.page).toHaveURL((url) => url.searchParams.get('redirect') === '/home');
    return signIn;
  }
}
