/** /unlock: the 4-digit unlock code, asked for when the access token has expired. */
import { expect, type Locator, type Page } from '@playwright/test';
import { demo } from '../support/api.ts';
import type { Locale } from '../support/catalog.ts';
import { AppPage } from './AppPage.ts';
import { HomePage } from './HomePage.ts';

export class UnlockPage extends AppPage {
  /** Expects the app to be on unlock now (after a guard or an expired session sent it there). */
  static async expectOn(page: Page, locale: Locale = 'en'): Promise<UnlockPage> {
    const unlock = new UnlockPage(page, locale);
    await unlock.expectShown();
    return unlock;
  }

  get heading(): Locator {
    return this.page.getByRole('heading', { level: 1, name: this.t('Enter your unlock code'), exact: true });
  }

  get code(): Locator {
    return this.page.getByLabel(this.t('Unlock code'), { exact: true });
  }

  get submitButton(): Locator {
    return this.page.getByRole('main').getByRole('button', { name: this.t('Unlock'), exact: true });
  }

  async expectShown(): Promise<void> {
    await expect(this.page).toHaveURL((url) => url.pathname === '/unlock');
    await expect(this.heading).toBeVisible();
    await expect(this.code).toBeVisible();
  }

  async submit(code: string): Promise<void> {
    await this.code.fill(code);
    await this.submitButton.click();
  }

  /** Enters a code the server refuses; unlock stays, with the error shown. */
  async unlockRejected(code: string): Promise<UnlockPage> {
    await this.submit(code);
    await expect(this.alert).toBeVisible();
    return this;
  }

  /** Enters the right code and continues to home (the remembered route). */
  async unlock(code: string = demo.unlockCode): Promise<HomePage> {
    await this.submit(code);
    const home = new HomePage(this.page, this.locale);
    await home.expectShown();
    return home;
  }
}
