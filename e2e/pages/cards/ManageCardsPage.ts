/**
 * /manage-cards: the cardholder's cards side by side, each with its status and what can be done with
 * it (lock, PIN, lost or stolen, card details), in the page's language.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import type { Locale } from '../../support/catalog.ts';
import { AppPage } from '../AppPage.ts';
import { LostStolenPage } from './LostStolenPage.ts';
import { ResetPinPage } from './ResetPinPage.ts';

export type CardKind = 'Virtual card' | 'Physical card' | 'Replacement card';

export class ManageCardsPage extends AppPage {
  /** Opens /manage-cards directly (the session must already be in storage). */
  static async open(page: Page, locale: Locale = 'en', initialSlide?: number): Promise<ManageCardsPage> {
    await page.goto(initialSlide === undefined ? '/manage-cards' : `/manage-cards?initialSlide=${initialSlide}`);
    const cards = new ManageCardsPage(page, locale);
    await cards.expectShown();
    return cards;
  }

  get screen(): Locator {
    return this.page.getByRole('region', { name: this.t('Manage cards'), exact: true });
  }

  get list(): Locator {
    return this.screen.getByRole('list', { name: this.t('Your cards'), exact: true });
  }

  /** "Card 2 of 3": which card is in view. */
  position(at: number, of: number): Locator {
    return this.screen.getByText(this.t('Card {position} of {count}').replace('{position}', String(at)).replace('{count}', String(of)), { exact: true });
  }

  /** The card's slide, by its heading ("Physical card ending in 5678"; a card on its way has no number yet). */
  card(kind: CardKind, lastFour?: string | null): Locator {
    const name = lastFour ? `${this.t(kind)} ${this.t('ending in {lastFour}').replace('{lastFour}', lastFour)}` : this.t(kind);
    return this.list.getByRole('listitem').filter({ has: this.page.getByRole('heading', { level: 2, name, exact: true }) });
  }

  lockSwitch(card: Locator): Locator {
    // Named "Lock card ending in 1234": the card's own switch.
    return card.getByRole('switch', { name: this.t('Lock card') });
  }

  /** The card's status line says `source` ("Locked", "Active", "Reported lost"…). */
  cardStatus(card: Locator, source: string): Locator {
    return card.locator('.card-status strong').filter({ hasText: this.t(source) });
  }

  async lock(card: Locator): Promise<void> {
    await this.lockSwitch(card).click();
    await expect(this.lockSwitch(card)).toHaveAttribute('aria-checked', 'true');
    await expect(this.cardStatus(card, 'Locked')).toBeVisible();
    await expect(card.getByRole('status')).toHaveText(this.t('Your card is locked.'));
  }

  async unlock(card: Locator): Promise<void> {
    await this.lockSwitch(card).click();
    await expect(this.lockSwitch(card)).toHaveAttribute('aria-checked', 'false');
    await expect(this.cardStatus(card, 'Active')).toBeVisible();
    await expect(card.getByRole('status')).toHaveText(this.t('Your card is unlocked.'));
  }

  async reportLostOrStolen(card: Locator): Promise<LostStolenPage> {
    await card.getByRole('button', { name: this.t('Report lost or stolen'), exact: true }).click();
    const report = new LostStolenPage(this.page, this.locale);
    await report.expectShown();
    return report;
  }

  /** Follows the card's "Set PIN" or "Change ATM PIN" link. */
  async changePin(card: Locator, pin: 'card' | 'atm'): Promise<ResetPinPage> {
    await card.getByRole('link', { name: this.t(pin === 'atm' ? 'Change ATM PIN' : 'Set PIN'), exact: true }).click();
    const reset = new ResetPinPage(this.page, this.locale, pin);
    await reset.expectShown();
    return reset;
  }

  /** The virtual card's number, expiry and CVV: the processor's page, framed on its own origin. */
  detailsFrame(card: Locator): Locator {
    return card.getByTitle(this.t("Your virtual card's number, expiry date and CVV"), { exact: true });
  }

  async expectShown(): Promise<void> {
    await expect(this.page).toHaveURL((url) => url.pathname === '/manage-cards');
    await expect(this.screen.getByRole('heading', { level: 1, name: this.t('Manage cards'), exact: true })).toBeVisible();
    await expect(this.list).toBeVisible();
  }
}
