/** A screen that failed to show: the app's error screen inside its frame, with a retry and the way home. */
import { expect, type Locator } from '@playwright/test';
import { AppPage } from './AppPage.ts';

export class ErrorPage extends AppPage {
  get heading(): Locator {
    return this.page.getByRole('main').getByRole('heading', { level: 1, name: this.t('Something went wrong.'), exact: true });
  }

  get retryButton(): Locator {
    return this.page.getByRole('main').getByRole('button', { name: this.t('Try again'), exact: true });
  }

  get homeLink(): Locator {
    return this.page.getByRole('main').getByRole('link', { name: this.t('Go to home'), exact: true });
  }

  /**
   * A screen whose code did not download (the failure the browser tests cause): shown with its heading
   * focused, the spec's words (§8) and the connection to check, never "an unexpected error" nor the
   * router library's English.
   */
  async expectShown(): Promise<void> {
    await expect(this.heading).toBeVisible();
    await expect(this.heading).toBeFocused();
    const main = this.page.getByRole('main');
    await expect(main.getByText(this.t("We couldn't open this screen. Check your connection and try again."))).toBeVisible();
    await expect(main.getByText(this.t('There was an unexpected error. Please try again.'))).toHaveCount(0);
    await expect(this.page.getByText('Something went wrong!'), "the router library's own screen").toHaveCount(0);
  }
}
