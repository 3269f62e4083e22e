/** /manage-account: changing the unlock code (a new code and its confirmation). */
import { expect, type Locator } from '@playwright/test';
import { AppPage } from '../AppPage.ts';
import type { HomePage } from '../home/HomePage.ts';

export class ManageAccountPage extends AppPage {
  /** Follows home's "Manage account" link. */
  static async fromHome(home: HomePage): Promise<ManageAccountPage> {
    const manage = new ManageAccountPage(home.page, home.locale);
    await home.screen.getByRole('link', { name: manage.t('Manage account'), exact: true }).click();
    await manage.expectShown();
    return manage;
  }

  get heading(): Locator {
    return this.page.getByRole('heading', { level: 1, name: this.t('Manage account'), exact: true });
  }

  get sectionHeading(): Locator {
    return this.page.getByRole('heading', { level: 2, name: this.t('Change your unlock code'), exact: true });
  }

  get newCode(): Locator {
    return this.page.getByLabel(this.t('New unlock code'), { exact: true });
  }

  get confirmation(): Locator {
    return this.page.getByLabel(this.t('Confirm new unlock code'), { exact: true });
  }

  get saveButton(): Locator {
    return this.page.getByRole('main').getByRole('button', { name: this.t('Save unlock code'), exact: true });
  }

  get backToHome(): Locator {
    return this.page.getByRole('main').getByRole('link', { name: this.t('Back to home'), exact: true });
  }

  /** The field's error, as read out with it (its accessible description). */
  async expectFieldError(field: Locator, source: string): Promise<void> {
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await expect(field).toHaveAccessibleDescription(this.t(source));
  }

  async expectShown(): Promise<void> {
    await expect(this.page).toHaveURL((url) => url.pathname === '/manage-account');
    await expect(this.heading).toBeVisible();
    await expect(this.newCode).toBeVisible();
  }

  /** Types both codes and saves. */
  async save(code: string, confirmation: string = code): Promise<void> {
    await this.newCode.fill(code);
    await this.confirmation.fill(confirmation);
    await this.saveButton.click();
  }

  /** Switches to the other language; the same screen stays. */
  async switchLanguage(): Promise<ManageAccountPage> {
    await this.languageSwitch.click();
    const next = new ManageAccountPage(this.page, this.otherLocale);
    await next.expectLanguage();
    await next.expectShown();
    return next;
  }

  /** The success notice, and the form emptied for another change. */
  async expectSaved(): Promise<void> {
    await expect(this.status('Your unlock code has been changed.')).toBeVisible();
    await expect(this.newCode).toHaveValue('');
    await expect(this.confirmation).toHaveValue('');
    await expect(this.saveButton).toBeEnabled();
  }
}
