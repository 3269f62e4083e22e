/** What every screen shares: the header with the language switch and sign-out, and the shown text. */
import { expect, type Locator, type Page } from '@playwright/test';
import { shown, type Locale } from '../support/catalog.ts';

export abstract class AppPage {
  constructor(
    readonly page: Page,
    readonly locale: Locale = 'en',
  ) {}

  /** The text the app shows for an English source message in this page's language. */
  protected t(source: string): string {
    return shown(this.locale, source);
  }

  protected get otherLocale(): Locale {
    return this.locale === 'en' ? 'es' : 'en';
  }

  get header(): Locator {
    return this.page.getByRole('navigation', { name: this.t('Account and language') });
  }

  /** The language switch offers the other language in its own words. */
  get languageSwitch(): Locator {
    return this.header.getByRole('button', { name: this.otherLocale === 'es' ? 'Español' : 'English', exact: true });
  }

  get signOutButton(): Locator {
    return this.header.getByRole('button', { name: this.t('Sign out'), exact: true });
  }

  /** The screen's title (whatever it says). */
  get title(): Locator {
    return this.page.getByRole('main').getByRole('heading', { level: 1 });
  }

  /** A polite status message (screen notice or snackbar) saying `source`. */
  status(source: string): Locator {
    return this.page.getByRole('status').filter({ hasText: this.t(source) });
  }

  /** The snackbar said `source` (recorded as it was put in: e2e/support/snackbar.ts), however long ago. */
  async expectSnackbarSaid(source: string): Promise<void> {
    await expect.poll(() => this.page.evaluate(() => window.saidBySnackbar), { message: `the snackbar said "${source}"` }).toContain(this.t(source));
  }

  /** Alerts inside the screen (form errors). */
  get alert(): Locator {
    return this.page.getByRole('main').getByRole('alert');
  }

  async expectLanguage(locale: Locale = this.locale): Promise<void> {
    await expect(this.page.locator('html')).toHaveAttribute('lang', locale);
  }

  /** Horizontal overflow at the phone width: the document must not be wider than the viewport. */
  async horizontalOverflow(): Promise<{ scrollWidth: number; viewportWidth: number }> {
    return this.page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      viewportWidth: window.innerWidth,
    }));
  }
}
