/** /order-card/:step?: what a physical card costs, the review, the confirmation and the receipt. */
import { expect, type Locator, type Page } from '@playwright/test';
import type { Locale } from '../../support/catalog.ts';
import { dollars } from '../../support/text.ts';
import { AppPage } from '../AppPage.ts';
import { dayInSentence, moneyLinesOf } from './cardScreens.ts';

export class OrderCardPage extends AppPage {
  /** Opens /order-card (the session must already be in storage); an account already funded lands on step 2. */
  static async open(page: Page, locale: Locale = 'en'): Promise<OrderCardPage> {
    await page.goto('/order-card');
    const order = new OrderCardPage(page, locale);
    await expect(order.title).toBeVisible();
    return order;
  }

  get screen(): Locator {
    return this.page.getByRole('main');
  }

  get stepText(): Locator {
    return this.screen.locator('.step-indicator-text');
  }

  private fee(cents = 500): string {
    return dollars(cents, this.locale);
  }

  /** Step 1, for an account never funded: what the card is and costs, and that the balance pays for it. */
  async expectIntro(balanceCents: number): Promise<void> {
    // Step 1 is also the address without a step (spec §2: the step defaults to 1).
    await expect(this.page).toHaveURL((url) => url.pathname === '/order-card' || url.pathname === '/order-card/1');
    await expect(this.title).toHaveText(this.t('Order your Providers Card'));
    await expect(this.screen.getByText(this.t('Sending it costs {fee}, taken from your balance.').replace('{fee}', this.fee()))).toBeVisible();
    await expect(
      this.screen.getByText(
        this.t('Your balance is {balance}. Add at least {fee} to your account before you order.')
          .replace('{balance}', dollars(balanceCents, this.locale))
          .replace('{fee}', this.fee()),
      ),
    ).toBeVisible();
  }

  async continue(): Promise<void> {
    await this.screen.getByRole('button', { name: this.t('Continue'), exact: true }).click();
  }

  /** Step 2: where the card goes (the street the account was opened with) and what the fee leaves. */
  async expectReview(balanceCents: number, street1: string): Promise<void> {
    await expect(this.page).toHaveURL((url) => url.pathname === '/order-card/2');
    await expect(this.title).toHaveText(this.t('Review your card order'));
    await expect(this.screen.getByText(this.t("We'll mail your Providers Card to:"))).toBeVisible();
    await expect(this.screen.locator('address')).toContainText(street1);
    await expect.poll(() => moneyLinesOf(this.screen)).toEqual([
      [this.t('Card fee'), this.fee()],
      [this.t('Your balance now'), dollars(balanceCents, this.locale)],
      // Short of the fee, what is missing: a prepaid balance is never shown below zero.
      balanceCents < 500 ? [this.t('Amount still needed'), dollars(500 - balanceCents, this.locale)] : [this.t('Your balance after'), dollars(balanceCents - 500, this.locale)],
    ]);
  }

  /** The balance does not cover the fee: said, and nothing charged. */
  async expectNotEnoughMoney(): Promise<void> {
    await expect(this.alert.filter({ hasText: this.t('Not enough money in your account') })).toContainText(
      this.t("Your balance doesn't cover the {amount} fee, so nothing was charged. Add money to your account, then try again.").replace('{amount}', this.fee()),
    );
  }

  /** Step 3: the confirmation, with what it takes and why. */
  async expectConfirm(): Promise<void> {
    await expect(this.page).toHaveURL((url) => url.pathname === '/order-card/3');
    await expect(this.title).toHaveText(this.t('Confirm your order'));
    await expect(
      this.screen.getByText(
        this.t("We'll take {fee} from your balance and mail your card.").replace('{fee}', this.fee()),
      ),
    ).toBeVisible();
  }

  /** Orders, and waits for the receipt: only then has the card API answered (and the card exists). */
  async order(): Promise<void> {
    await this.screen.getByRole('button', { name: this.t('Order my card for {fee}').replace('{fee}', this.fee()), exact: true }).click();
    await expect(this.page).toHaveURL((url) => url.pathname === '/order-card/4');
  }

  /** Step 4: what was taken, the balance now, and the window the card should arrive in. */
  async expectReceipt(balanceBeforeCents: number, delivery: { earliest: string; latest: string }): Promise<void> {
    await expect(this.page).toHaveURL((url) => url.pathname === '/order-card/4');
    await expect(this.title).toHaveText(this.t('Your card is on its way'));
    await expect(this.screen.getByRole('status')).toHaveText(
      this.t('We took {fee} from your balance and ordered your Providers Card.').replace('{fee}', this.fee()),
    );
    await expect.poll(() => moneyLinesOf(this.screen)).toEqual([
      [this.t('Card fee paid'), this.fee()],
      [this.t('Your balance now'), dollars(balanceBeforeCents - 500, this.locale)],
    ]);
    const arrival = this.t('It should arrive between {earliest} and {latest}.')
      .replace('{earliest}', dayInSentence(delivery.earliest, this.locale))
      .replace('{latest}', dayInSentence(delivery.latest, this.locale));
    await expect(this.screen.getByText(arrival)).toBeVisible();
  }

  /** A card already on its way: nothing more to order; once shipped, activation is one tap away. */
  async expectAlreadyOrdered(): Promise<void> {
    await expect(this.title).toHaveText(this.t('Your card is already on its way'));
    // Whether its fee was taken, for one who comes back after the order's answer was lost.
    await expect(this.screen.getByText(this.t('We took {fee} from your balance for it when it was ordered.').replace('{fee}', dollars(500, this.locale)))).toBeVisible();
  }

  get activateLink(): Locator {
    return this.screen.getByRole('link', { name: this.t('Activate your card'), exact: true });
  }

  /** A physical card already works: replace a damaged one, report a lost one. */
  async expectAlreadyHaveCard(): Promise<void> {
    await expect(this.title).toHaveText(this.t('You already have a Providers Card'));
    await expect(this.screen.getByRole('link', { name: this.t('Replace a damaged card'), exact: true })).toBeVisible();
  }
}
