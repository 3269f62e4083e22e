/** /replacement-card/:step?: a damaged card replaced for the replacement fee; the old one works until the new one ships. */
import { expect, type Locator, type Page } from '@playwright/test';
import type { Locale } from '../../support/catalog.ts';
import { dollars } from '../../support/text.ts';
import { AppPage } from '../AppPage.ts';
import { moneyLinesOf } from './cardScreens.ts';

export class ReplacementPage extends AppPage {
  static async open(page: Page, locale: Locale = 'en'): Promise<ReplacementPage> {
    await page.goto('/replacement-card');
    const replacement = new ReplacementPage(page, locale);
    await expect(replacement.title).toBeVisible();
    return replacement;
  }

  get screen(): Locator {
    return this.page.getByRole('main');
  }

  /** Step 1: where the card goes, that the old one keeps working until the new one ships, and the fee. */
  async expectReview(lastFour: string, street1: string, balanceCents: number): Promise<void> {
    await expect(this.screen.getByText(this.t("We'll mail a new Providers Card to:"))).toBeVisible();
    await expect(this.title).toHaveText(this.t('Replace a damaged card'));
    await expect(this.screen.locator('address')).toContainText(street1);
    await expect(
      this.screen.getByText(this.t('Your card ending in {lastFour} keeps working until the new one ships. Then it stops, so keep an eye out for the new one.').replace('{lastFour}', lastFour)),
    ).toBeVisible();
    await expect.poll(() => moneyLinesOf(this.screen)).toEqual([
      [this.t('Replacement fee'), dollars(500, this.locale)],
      [this.t('Your balance now'), dollars(balanceCents, this.locale)],
      balanceCents < 500 ? [this.t('Amount still needed'), dollars(500 - balanceCents, this.locale)] : [this.t('Your balance after'), dollars(balanceCents - 500, this.locale)],
    ]);
  }

  async continue(): Promise<void> {
    await this.screen.getByRole('button', { name: this.t('Continue'), exact: true }).click();
  }

  /** Step 2: the confirmation, with what it takes. */
  async expectConfirm(lastFour: string): Promise<void> {
    await expect(this.page).toHaveURL((url) => url.pathname === '/replacement-card/2');
    await expect(this.title).toHaveText(this.t('Confirm your replacement'));
    await expect(
      this.screen.getByText(
        this.t("We'll take {fee} from your balance and mail you a new card. Your card ending in {lastFour} keeps working until the new one ships.")
          .replace('{fee}', dollars(500, this.locale))
          .replace('{lastFour}', lastFour),
      ),
    ).toBeVisible();
  }

  async replace(): Promise<void> {
    await this.screen.getByRole('button', { name: this.t('Replace my card for {fee}').replace('{fee}', dollars(500, this.locale)), exact: true }).click();
  }

  async expectReceipt(balanceBeforeCents: number): Promise<void> {
    await expect(this.page).toHaveURL((url) => url.pathname === '/replacement-card/3');
    await expect(this.title).toHaveText(this.t('Your new card is on its way'));
    await expect(this.screen.getByRole('status')).toHaveText(
      this.t('We took {fee} from your balance and ordered your new Providers Card.').replace('{fee}', dollars(500, this.locale)),
    );
    await expect.poll(() => moneyLinesOf(this.screen)).toEqual([
      [this.t('Replacement fee paid'), dollars(500, this.locale)],
      [this.t('Your balance now'), dollars(balanceBeforeCents - 500, this.locale)],
    ]);
  }

  /** A new card is already on its way: nothing more to order. */
  async expectAlreadyOrdered(): Promise<void> {
    await expect(this.title).toHaveText(this.t('A new card is already on its way'));
    // Whether its fee was taken, for one who comes back after the order's answer was lost.
    await expect(this.screen.getByText(this.t('We took {fee} from your balance for it when it was ordered.').replace('{fee}', dollars(500, this.locale)))).toBeVisible();
  }

  /**
   * The replacement just asked for was refused, a new card being on its way already (ordered on another
   * tab): the screen that says so, its heading focused as on arriving at any result, the refusal said
   * (nothing charged), and nothing left to press but the links out.
   */
  async expectRefusedAsAlreadyOrdered(): Promise<void> {
    await this.expectAlreadyOrdered();
    await expect(this.title).toBeFocused();
    await expect(this.screen.getByText(this.t("We didn't order another card, and we didn't charge you for one."), { exact: true })).toBeVisible();
    await expect(this.screen.getByRole('button')).toHaveCount(0);
    await expect(this.screen.getByRole('link', { name: this.t('Manage cards'), exact: true })).toBeVisible();
  }
}
