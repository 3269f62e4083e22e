/** /statements: one statement per month, newest first, each with its balances and its PDF to download. */
import { readFile } from 'node:fs/promises';
import { expect, type Locator, type Page } from '@playwright/test';
import type { Locale } from '../../support/catalog.ts';
import { AppPage } from '../AppPage.ts';

export class StatementsPage extends AppPage {
  /** Opens /statements directly (the session must already be in storage). */
  static async open(page: Page, locale: Locale = 'en'): Promise<StatementsPage> {
    await page.goto('/statements');
    const statements = new StatementsPage(page, locale);
    await statements.expectShown();
    return statements;
  }

  get screen(): Locator {
    return this.page.getByRole('region', { name: this.t('Monthly statements'), exact: true });
  }

  /** One list item per month, newest first. */
  get months(): Locator {
    return this.screen.getByRole('listitem');
  }

  /** The month's name, as its heading says it ("November 2026"). */
  monthName(month: Locator): Promise<string> {
    return month.getByRole('heading', { level: 2 }).innerText();
  }

  /** The value shown beside a label of the month's balances ("Closing balance"). */
  balance(month: Locator, label: 'Opening balance' | 'Closing balance'): Locator {
    return month
      .locator('dl > div')
      .filter({ has: this.page.getByRole('term').filter({ hasText: this.t(label) }) })
      .getByRole('definition');
  }

  /**
   * Each balance's value sits on its label's line, at the card's right edge (the detail list's layout,
   * there however /statements was reached).
   */
  async expectBalancesBesideLabels(month: Locator): Promise<void> {
    for (const label of ['Opening balance', 'Closing balance'] as const) {
      const value = this.balance(month, label);
      const term = month.getByRole('term').filter({ hasText: this.t(label) });
      const [valueBox, termBox, monthBox] = await Promise.all([value.boundingBox(), term.boundingBox(), month.boundingBox()]);
      expect(Math.abs(valueBox!.y - termBox!.y), `${label}: value on the label's line`).toBeLessThan(2);
      expect(monthBox!.x + monthBox!.width - (valueBox!.x + valueBox!.width), `${label}: value at the right`).toBeLessThanOrEqual(24);
    }
  }

  /** The month's name inside a sentence: Spanish writes "noviembre de 2026" there, "Noviembre de 2026" as a heading. */
  async monthInSentence(month: Locator): Promise<string> {
    const name = await this.monthName(month);
    return this.locale === 'es' ? name.charAt(0).toLowerCase() + name.slice(1) : name;
  }

  /** The month's download button, named with the month ("Download PDF for November 2026"). */
  async downloadButton(month: Locator): Promise<Locator> {
    const name = this.t('Download PDF for {month}').replace('{month}', await this.monthInSentence(month));
    return month.getByRole('button', { name, exact: true });
  }

  /** Downloads the month's PDF: its suggested file name and its bytes, once the screen says it has downloaded. */
  async download(month: Locator): Promise<{ fileName: string; bytes: Uint8Array }> {
    const button = await this.downloadButton(month);
    const [download] = await Promise.all([this.page.waitForEvent('download'), button.click()]);
    const said = this.t('Your statement for {month} has downloaded.').replace('{month}', await this.monthInSentence(month));
    await expect(month.getByRole('status')).toHaveText(said);
    const file = await download.path();
    return { fileName: download.suggestedFilename(), bytes: new Uint8Array(await readFile(file)) };
  }

  async expectShown(): Promise<void> {
    await expect(this.page).toHaveURL((url) => url.pathname === '/statements');
    await expect(this.screen.getByRole('heading', { level: 1, name: this.t('Monthly statements') })).toBeVisible();
    await expect(this.months.first()).toBeVisible();
  }
}
