/** /transactions and /transactions/detail: the cardholder's activity, a page at a time, and one transaction. */
import { expect, type Locator, type Page } from '@playwright/test';
import type { Locale } from '../../support/catalog.ts';
import { AppPage } from '../AppPage.ts';

export class ActivityPage extends AppPage {
  /** Opens /transactions directly (the session must already be in storage). */
  static async open(page: Page, locale: Locale = 'en'): Promise<ActivityPage> {
    await page.goto('/transactions');
    const activity = new ActivityPage(page, locale);
    await activity.expectShown();
    return activity;
  }

  get screen(): Locator {
    return this.page.getByRole('region', { name: this.t('Activity'), exact: true });
  }

  /** Each transaction is a link to its detail, named by what it was, when, where and how much. */
  rowLink(text: string): Locator {
    return this.screen.getByRole('link').filter({ hasText: text });
  }

  get rowLinks(): Locator {
    return this.screen.getByRole('listitem').getByRole('link');
  }

  get refreshButton(): Locator {
    return this.screen.getByRole('button', { name: this.t('Refresh'), exact: true });
  }

  get showOlderButton(): Locator {
    return this.screen.getByRole('button', { name: this.t('Show older activity'), exact: true });
  }

  get pendingBadge(): string {
    return this.t('Pending');
  }

  async expectShown(): Promise<void> {
    await expect(this.page).toHaveURL((url) => url.pathname === '/transactions');
    await expect(this.screen.getByRole('heading', { level: 1, name: this.t('Activity') })).toBeVisible();
    await expect(this.rowLinks.first()).toBeVisible();
  }

  /**
   * Refreshes by keyboard: the button keeps the focus while it refreshes (aria-disabled, not disabled),
   * the list's answer held until that is seen, however fast the server is.
   */
  async refresh(): Promise<void> {
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    const isList = (url: URL) => url.pathname === '/api/v1/transactions';
    await this.page.route(isList, async (route) => {
      await held;
      await route.continue();
    });
    await this.refreshButton.focus();
    await this.page.keyboard.press('Enter');
    const refreshing = this.screen.getByRole('button', { name: this.t('Refreshing…'), exact: true });
    await expect(refreshing).toHaveAttribute('aria-disabled', 'true');
    await expect(refreshing).toBeFocused();
    answer();
    await expect(this.refreshButton).toBeEnabled();
    await expect(this.refreshButton).toBeFocused();
    await this.page.unroute(isList);
  }

  /** Opens a transaction's detail from its row. */
  async open(row: Locator): Promise<TransactionDetailPage> {
    await row.click();
    const detail = new TransactionDetailPage(this.page, this.locale);
    await expect(this.page).toHaveURL((url) => url.pathname === '/transactions/detail');
    await expect(detail.amount).toBeVisible();
    return detail;
  }
}

export class TransactionDetailPage extends AppPage {
  get screen(): Locator {
    return this.page.getByRole('main');
  }

  /** The amount as it is seen ("+$500.00"); the paragraph around it is heard as "Amount: plus $500.00". */
  get amount(): Locator {
    return this.screen.locator('.detail-amount [aria-hidden="true"]');
  }

  /** The value of one of the detail's rows ("Status", "Merchant", …). */
  value(label: string): Locator {
    return this.screen
      .locator('dl > div')
      .filter({ has: this.page.getByRole('term').filter({ hasText: this.t(label) }) })
      .getByRole('definition');
  }
}
