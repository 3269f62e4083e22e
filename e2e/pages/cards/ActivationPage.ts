/** /activate/:step?: the last 4 digits and the expiry printed on the card, then the card works. */
import { expect, type Locator, type Page } from '@playwright/test';
import type { Locale } from '../../support/catalog.ts';
import { AppPage } from '../AppPage.ts';

export class ActivationPage extends AppPage {
  /** Opens /activate/1 directly (a card must await activation, else the route goes home). */
  static async open(page: Page, locale: Locale = 'en', { replacement = false } = {}): Promise<ActivationPage> {
    await page.goto(`/activate/1${replacement ? '?isReplacement=true' : ''}`);
    const activation = new ActivationPage(page, locale);
    await activation.expectForm(replacement);
    return activation;
  }

  get screen(): Locator {
    return this.page.getByRole('main');
  }

  get lastFour(): Locator {
    return this.screen.getByLabel(this.t('Last 4 digits of your card'), { exact: true });
  }

  get expiry(): Locator {
    return this.screen.getByLabel(this.t('Expiration date (MM/YY)'), { exact: true });
  }

  get activateButton(): Locator {
    return this.screen.getByRole('button', { name: this.t('Activate'), exact: true });
  }

  async expectForm(replacement = false): Promise<void> {
    await expect(this.title).toHaveText(this.t(replacement ? 'Activate your replacement card' : 'Activate your card'));
    await expect(this.lastFour).toBeVisible();
  }

  async activate(lastFour: string, expiry: string): Promise<void> {
    await this.lastFour.fill(lastFour);
    await this.expiry.fill(expiry);
    await this.activateButton.click();
  }

  /** Spec §4: a wrong expiry clears the field; its own message says how many tries are left. */
  async expectWrongExpiry(triesLeft: number): Promise<void> {
    const tries = triesLeft === 1 ? this.t('You have 1 more try.') : this.t('You have # more tries.').replace('#', String(triesLeft));
    await expect(this.expiry).toHaveValue('');
    await expect(this.expiry).toBeFocused();
    await expect(this.expiry).toHaveAttribute('aria-invalid', 'true');
    await expect(this.alert.filter({ hasText: this.t("This expiration date doesn't match the card we sent you. Please enter it again.") })).toHaveText(
      `${this.t("This expiration date doesn't match the card we sent you. Please enter it again.")} ${tries}`,
    );
  }

  async expectActive(): Promise<void> {
    await expect(this.page).toHaveURL((url) => url.pathname === '/activate/2');
    await expect(this.title).toHaveText(this.t('Your card is active'));
    await expect(this.screen.getByRole('status')).toContainText(this.t('You can now use your Providers Card.'));
  }
}
