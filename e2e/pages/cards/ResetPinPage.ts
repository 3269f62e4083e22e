/**
 * /reset-pin: setting the card's PIN or ATM PIN on the card processor's hosted page, framed on the
 * processor's own origin. The processor's page has its own words (server/partners/processorPages.ts).
 */
import { expect, type FrameLocator, type Locator, type Page } from '@playwright/test';
import type { Locale } from '../../support/catalog.ts';
import { AppPage } from '../AppPage.ts';

/** The sandbox processor's labels, in its two languages (server/partners/processorPages.ts). */
const processorText = {
  en: { newPin: 'New PIN (4 digits)', confirmPin: 'Type the new PIN again', submit: 'Set PIN', expired: 'Answer -10 (token expired)', changed: 'Answer -11 (token changed)' },
  es: {
    newPin: 'PIN nuevo (4 dígitos)',
    confirmPin: 'Escriba el PIN nuevo otra vez',
    submit: 'Establecer PIN',
    expired: 'Responder -10 (token vencido)',
    changed: 'Responder -11 (token cambiado)',
  },
} as const;

export class ResetPinPage extends AppPage {
  constructor(
    page: Page,
    locale: Locale,
    readonly pin: 'card' | 'atm',
  ) {
    super(page, locale);
  }

  get heading(): Locator {
    return this.page.getByRole('heading', { level: 1, name: this.t(this.pin === 'atm' ? 'Change your ATM PIN' : 'Set your PIN'), exact: true });
  }

  /** The frame element (its title names it for screen readers). */
  get frameElement(): Locator {
    return this.page.getByTitle(this.t(this.pin === 'atm' ? 'Secure form to change your ATM PIN' : 'Secure form to set your PIN'), { exact: true });
  }

  get frame(): FrameLocator {
    return this.frameElement.contentFrame();
  }

  /** Types the PIN twice on the processor's page and sends it. */
  async setPin(pin: string): Promise<void> {
    const text = processorText[this.locale];
    await this.frame.getByLabel(text.newPin, { exact: true }).fill(pin);
    await this.frame.getByLabel(text.confirmPin, { exact: true }).fill(pin);
    await this.frame.getByRole('button', { name: text.submit, exact: true }).click();
  }

  /** The processor answers -10 or -11 (its sandbox controls). */
  async processorAnswers(code: -10 | -11): Promise<void> {
    const text = processorText[this.locale];
    await this.frame.getByRole('button', { name: code === -10 ? text.expired : text.changed, exact: true }).click();
  }

  get failure(): Locator {
    return this.alert.filter({ hasText: this.t("Sorry, we weren't able to change your PIN...") });
  }

  /** After -11: the failure also says a newer form for this card was opened in another tab or window, and offers Try again. */
  get formReplaced(): Locator {
    return this.failure.filter({
      hasText: this.t('A newer PIN form for this card was opened in another tab or window. Use that form, or tap Try again to use one here.'),
    });
  }

  get retryButton(): Locator {
    return this.alert.getByRole('button', { name: this.t('Try again'), exact: true });
  }

  /** Try again, by keyboard: the heading keeps the focus until the form is back (not the page's start). */
  async retry(): Promise<void> {
    await this.retryButton.press('Enter');
    await expect(this.heading).toBeFocused();
    await expect(this.frameElement).toBeVisible();
  }

  async expectShown(): Promise<void> {
    await expect(this.page).toHaveURL((url) => url.pathname === '/reset-pin');
    await expect(this.heading).toBeVisible();
    await expect(this.frameElement).toBeVisible();
  }
}
