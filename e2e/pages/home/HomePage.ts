/** /home: balance, cards and recent activity. */
import { expect, type Locator, type Page } from '@playwright/test';
import type { Locale } from '../../support/catalog.ts';
import { AppPage } from '../AppPage.ts';
import { SignInPage } from '../session/SignInPage.ts';

export class HomePage extends AppPage {
  /** Opens /home directly (the session must already be in storage). */
  static async open(page: Page, locale: Locale = 'en'): Promise<HomePage> {
    await page.goto('/home');
    const home = new HomePage(page, locale);
    await home.expectShown();
    return home;
  }

  /** The home screen, named by its (visually hidden) title. */
  get screen(): Locator {
    return this.page.getByRole('region', { name: this.t('Your account'), exact: true });
  }

  get balanceHeading(): Locator {
    return this.screen.getByRole('heading', { name: this.t('Available balance'), exact: true });
  }

  get cardsHeading(): Locator {
    return this.screen.getByRole('heading', { name: this.t('Your cards'), exact: true });
  }

  get activityHeading(): Locator {
    return this.screen.getByRole('heading', { name: this.t('Recent activity'), exact: true });
  }

  /** Rows of the card list and the activity list (not the holds explained under the balance). */
  get rows(): Locator {
    return this.screen.locator('.row-list > li');
  }

  /** The row that mentions `text` (a card name, a merchant or payer). */
  row(text: string): Locator {
    return this.rows.filter({ hasText: text });
  }

  cardRow(type: 'VIRTUAL' | 'PHYSICAL', lastFour: string): Locator {
    const source = type === 'VIRTUAL' ? 'Virtual card ending in {lastFour}' : 'Physical card ending in {lastFour}';
    return this.row(this.t(source).replace('{lastFour}', lastFour));
  }

  /** The card row's status, as the cards screens say it too ("Active", "Replaced", …). */
  async expectCardStatus(type: 'VIRTUAL' | 'PHYSICAL', lastFour: string, status: string): Promise<void> {
    await expect(this.cardRow(type, lastFour).locator('.card-status')).toHaveText(this.t(status));
  }

  /** Shown once a physical card on its way has shipped. */
  get activateCardLink(): Locator {
    return this.screen.getByRole('link', { name: this.t('Activate your card'), exact: true });
  }

  /** Waits for the account to load: on /home with the balance shown. */
  async expectShown(): Promise<void> {
    await expect(this.page).toHaveURL((url) => url.pathname === '/home');
    await expect(this.balanceHeading).toBeVisible();
  }

  /** The amount shown right under the "Available balance" heading, read from the accessibility tree. */
  async expectBalance(amount: string): Promise<void> {
    await expect(this.screen).toMatchAriaSnapshot(
      [`- heading ${JSON.stringify(this.t('Available balance'))} [level=2]`, `- paragraph: ${JSON.stringify(amount)}`].join('\n'),
    );
  }

  async signOut(): Promise<SignInPage> {
    await this.signOutButton.click();
    const signIn = new SignInPage(this.page, this.locale);
    await signIn.expectShown();
    return signIn;
  }

  async switchLanguage(): Promise<HomePage> {
    await this.languageSwitch.click();
    const next = new HomePage(this.page, this.otherLocale);
    await next.expectLanguage();
    await next.expectShown();
    return next;
  }
}
