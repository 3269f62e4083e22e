/** /manage-account: changing the unlock code (the current code, then a new code and its confirmation). */
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

  get currentCode(): Locator {
    return this.page.getByLabel(this.t('Current unlock code'), { exact: true });
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

  /**
   * The unlock screen's words for a wrong code, with the attempts left, as the current code's field
   * reads them out (the plural form from the catalogue: `one` for 1, else `other` with # replaced).
   */
  async expectWrongCurrentCode(attemptsLeft: number): Promise<void> {
    const plural = this.t('{attemptsLeft, plural, one {You have 1 more unlock attempt.} other {You have # more unlock attempts.}}');
    const form = new RegExp(`${attemptsLeft === 1 ? 'one' : 'other'} \\{([^}]*)\\}`).exec(plural)?.[1] ?? '';
    await expect(this.currentCode).toHaveAttribute('aria-invalid', 'true');
    await expect(this.currentCode).toHaveAccessibleDescription(`${this.t("This isn't the right code.")} ${form.replace('#', String(attemptsLeft))}`);
  }

  /** The new code's rule, read with its field (before any error). */
  static readonly newCodeRule = 'Your unlock code is 4 digits. Avoid codes that are easy to guess, like 1234 or 1111.';

  /** The field's error, as read out with it (its accessible description), after the field's rule if it has one. */
  async expectFieldError(field: Locator, source: string, rule?: string): Promise<void> {
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await expect(field).toHaveAccessibleDescription(rule ? `${this.t(rule)} ${this.t(source)}` : this.t(source));
  }

  async expectShown(): Promise<void> {
    await expect(this.page).toHaveURL((url) => url.pathname === '/manage-account');
    await expect(this.heading).toBeVisible();
    await expect(this.currentCode).toBeVisible();
    await expect(this.currentCode).toHaveAttribute('inputmode', 'numeric');
    await expect(this.newCode).toBeVisible();
  }

  /** Types the current code, the new one twice, and saves. */
  async save(current: string, code: string, confirmation: string = code): Promise<void> {
    await this.currentCode.fill(current);
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
    await expect(this.currentCode).toHaveValue('');
    await expect(this.newCode).toHaveValue('');
    await expect(this.confirmation).toHaveValue('');
    await expect(this.saveButton).toBeEnabled();
  }
}
