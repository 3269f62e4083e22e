/** Reporting a card lost or stolen (on /manage-cards): lost or stolen, what happens, then the card blocked. */
import { expect, type Locator } from '@playwright/test';
import { AppPage } from '../AppPage.ts';
import { dayInSentence } from './cardScreens.ts';
import { ManageCardsPage } from './ManageCardsPage.ts';

export class LostStolenPage extends AppPage {
  button(source: string): Locator {
    return this.page.getByRole('main').getByRole('button', { name: this.t(source), exact: true });
  }

  /** Lost or stolen, then the confirmation of what will happen. */
  async report(status: 'lost' | 'stolen'): Promise<void> {
    await this.button(status === 'lost' ? "It's lost" : 'It was stolen').click();
    await expect(this.page.getByText(this.t(status === 'lost' ? "You're reporting this card lost." : "You're reporting this card stolen."), { exact: true })).toBeVisible();
  }

  /** Blocks the card; with a replacement already ordered (a damaged card's) the button sends none. */
  async confirm(replacementOrdered = false): Promise<void> {
    await this.button(replacementOrdered ? 'Block my card' : 'Block my card and send a new one').click();
    await expect(this.title).toHaveText(this.t('Your card is blocked'));
  }

  /** What the screen says once reported: blocked now, the replacement's delivery window, the virtual card still working. */
  async expectBlocked(lastFour: string, delivery: { earliest: string; latest: string }, replacementOrdered = false): Promise<void> {
    const main = this.page.getByRole('main');
    await expect(main.getByRole('status')).toHaveText(
      this.t('Your card ending in {lastFour} is blocked for all purchases and ATM withdrawals now.').replace('{lastFour}', lastFour),
    );
    const window = this.t('Arrives between {earliest} and {latest}.')
      .replace('{earliest}', dayInSentence(delivery.earliest, this.locale))
      .replace('{latest}', dayInSentence(delivery.latest, this.locale));
    const coming = replacementOrdered ? 'Your new card is still on its way.' : 'A replacement card is on its way, free of charge.';
    await expect(main.getByText(`${this.t(coming)} ${window}`, { exact: true })).toBeVisible();
    await expect(main.getByText(this.t('Your virtual card keeps working for online purchases.'), { exact: true })).toBeVisible();
  }

  /** Blocks the card when its answer will not come back: the screen says the report could not be confirmed. */
  async confirmWithoutAnswer(): Promise<void> {
    await this.button('Block my card and send a new one').click();
    // The call got no answer: the generic error modal (spec §8) says so first.
    const errorModal = this.page.getByRole('dialog', { name: this.t('Sorry, something went wrong.') });
    await errorModal.getByRole('button', { name: this.t('OK') }).press('Enter');
    await expect(errorModal).toBeHidden();
    await expect(this.alert).toHaveText(`${this.t("We couldn't confirm your report. Your card may already be blocked.")}${this.t('Try again')}`);
    await expect(this.page.getByText(/isn't blocked/)).toHaveCount(0);
  }

  /** Sends the same report again (after one that could not be confirmed). */
  async tryAgain(): Promise<void> {
    await this.button('Try again').click();
    await expect(this.title).toHaveText(this.t('Your card is blocked'));
  }

  async backToCards(): Promise<ManageCardsPage> {
    await this.button('Back to your cards').click();
    const cards = new ManageCardsPage(this.page, this.locale);
    await cards.expectShown();
    return cards;
  }

  async expectShown(): Promise<void> {
    await expect(this.title).toHaveText(this.t('Report a lost or stolen card'));
    await expect(this.button("It's lost")).toBeVisible();
  }
}
