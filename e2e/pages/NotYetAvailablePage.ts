/** A screen of the route table whose flow is not built yet: it says so, and leads home. */
import { expect, type Locator } from '@playwright/test';
import { AppPage } from './AppPage.ts';

export class NotYetAvailablePage extends AppPage {
  get heading(): Locator {
    return this.page.getByRole('main').getByRole('heading', { level: 1, name: this.t('This screen is not available yet.'), exact: true });
  }

  get homeLink(): Locator {
    return this.page.getByRole('main').getByRole('link', { name: this.t('Go to home'), exact: true });
  }

  async expectShown(): Promise<void> {
    await expect(this.heading).toBeVisible();
    await expect(this.page.getByRole('main').getByText(this.t('We are still building this part of the app. Nothing here has changed your account.'))).toBeVisible();
  }
}
