/**
 * /unlock: the 4-digit unlock code, asked for when the access token has expired: as a screen (a
 * guard sent the user there) or in the auth modal over the screen whose call found it expired.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import { demo } from '../../support/api.ts';
import type { Locale } from '../../support/catalog.ts';
import { AppPage } from '../AppPage.ts';
import { expectScreenHiddenBehind } from './authModalBackdrop.ts';
import { HomePage } from '../home/HomePage.ts';

export class UnlockPage extends AppPage {
  constructor(
    page: Page,
    locale: Locale = 'en',
    readonly inModal = false,
  ) {
    super(page, locale);
  }

  /** Expects the unlock screen now (a guard sent the user there). */
  static async expectOn(page: Page, locale: Locale = 'en'): Promise<UnlockPage> {
    const unlock = new UnlockPage(page, locale);
    await unlock.expectShown();
    return unlock;
  }

  /** Expects the auth modal asking for the unlock code over the screen the user was on. */
  static async expectModal(page: Page, locale: Locale = 'en'): Promise<UnlockPage> {
    const unlock = new UnlockPage(page, locale, true);
    await unlock.expectShown();
    await expectScreenHiddenBehind(unlock.surface);
    return unlock;
  }

  /** Where the unlock form is: the screen, or the auth modal. */
  get surface(): Locator {
    return this.inModal ? this.page.getByRole('dialog', { name: this.t('Enter your unlock code') }) : this.page.getByRole('main');
  }

  get heading(): Locator {
    return this.surface.getByRole('heading', { level: this.inModal ? 2 : 1, name: this.t('Enter your unlock code'), exact: true });
  }

  get code(): Locator {
    return this.surface.getByLabel(this.t('Unlock code'), { exact: true });
  }

  get submitButton(): Locator {
    return this.surface.getByRole('button', { name: this.t('Unlock'), exact: true });
  }

  override get alert(): Locator {
    return this.surface.getByRole('alert');
  }

  /** What is wrong with the code typed: the code field's own error, which describes it. */
  get codeProblem(): Locator {
    return this.surface.locator('#unlock-code-error');
  }

  async expectShown(): Promise<void> {
    await expect(this.page).toHaveURL((url) => url.pathname === '/unlock');
    await expect(this.heading).toBeVisible();
    await expect(this.code).toBeVisible();
  }

  /** In the auth modal: the right code closes it, and the screen underneath is back in the address bar. */
  async unlockOverScreen(pathname: string, code: string = demo.unlockCode): Promise<void> {
    await this.submit(code);
    await expect(this.surface).toBeHidden();
    await expect(this.page).toHaveURL((url) => url.pathname === pathname && url.search === '');
  }

  async submit(code: string): Promise<void> {
    await this.code.fill(code);
    await this.submitButton.click();
  }

  /**
   * Enters a code the server refuses; unlock stays, the field in error with the focus, to type the code
   * again (the keyboard's focus is not left on the page's start).
   */
  async unlockRejected(code: string): Promise<UnlockPage> {
    await this.submit(code);
    await expect(this.codeProblem).toContainText(this.t("This isn't the right code."));
    await expect(this.code).toHaveAttribute('aria-invalid', 'true');
    await expect(this.code).toBeFocused();
    return this;
  }

  /** Enters the right code and continues to home (the remembered route). */
  async unlock(code: string = demo.unlockCode): Promise<HomePage> {
    await this.submit(code);
    const home = new HomePage(this.page, this.locale);
    await home.expectShown();
    return home;
  }
}
