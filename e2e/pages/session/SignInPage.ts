/** /signin: email and password. */
import { expect, type Locator, type Page } from '@playwright/test';
import { demo } from '../../support/api.ts';
import type { Locale } from '../../support/catalog.ts';
import { AppPage } from '../AppPage.ts';
import { expectScreenHiddenBehind } from './authModalBackdrop.ts';
import { HomePage } from '../home/HomePage.ts';

export class SignInPage extends AppPage {
  constructor(
    page: Page,
    locale: Locale = 'en',
    readonly inModal = false,
  ) {
    super(page, locale);
  }

  /** Expects the auth modal asking for a sign-in over the screen the user was on. */
  static async expectModal(page: Page, locale: Locale = 'en'): Promise<SignInPage> {
    const signIn = new SignInPage(page, locale, true);
    await signIn.expectShown();
    await expectScreenHiddenBehind(signIn.surface);
    await expect(signIn.surface.getByRole('heading', { level: 2, name: signIn.t('Sign in'), exact: true })).toBeVisible();
    return signIn;
  }

  /** Where the sign-in form is: the screen, or the auth modal. */
  get surface(): Locator {
    return this.inModal ? this.page.getByRole('dialog', { name: this.t('Sign in') }) : this.page.getByRole('main');
  }

  /**
   * The form's message after a refusal or a failure: it takes the focus, which says it (it is no alert,
   * which said it a second time).
   */
  get problem(): Locator {
    return this.surface.locator('.form-error');
  }

  /** Opens /signin (optionally remembering where to go after) and waits for the form. */
  static async open(page: Page, options: { redirect?: string; locale?: Locale } = {}): Promise<SignInPage> {
    const search = options.redirect ? `?redirect=${encodeURIComponent(options.redirect)}` : '';
    await page.goto(`/signin${search}`);
    const signIn = new SignInPage(page, options.locale);
    await signIn.expectShown();
    return signIn;
  }

  get heading(): Locator {
    return this.page.getByRole('heading', { level: 1, name: this.t('Sign in'), exact: true });
  }

  get forgotPasswordLink(): Locator {
    return this.surface.getByRole('link', { name: this.t('Forgot your password?'), exact: true });
  }

  get email(): Locator {
    return this.surface.getByLabel(this.t('Email'), { exact: true });
  }

  get password(): Locator {
    return this.surface.getByLabel(this.t('Password'), { exact: true });
  }

  get submitButton(): Locator {
    return this.surface.getByRole('button', { name: this.t('Sign in'), exact: true });
  }

  async expectShown(): Promise<void> {
    await expect(this.page).toHaveURL((url) => url.pathname === '/signin');
    await expect(this.email).toBeVisible();
    await expect(this.password).toBeVisible();
  }

  /** Fills and submits the form; where the app goes next is up to the caller. */
  async submit(email: string, password: string): Promise<void> {
    await this.email.fill(email);
    await this.password.fill(password);
    await this.submitButton.click();
  }

  /** Signs in as the demo cardholder and continues to home. */
  async signIn(email: string = demo.email, password: string = demo.password): Promise<HomePage> {
    await this.submit(email, password);
    const home = new HomePage(this.page, this.locale);
    await home.expectShown();
    return home;
  }

  /** Submits credentials the server refuses; stays on sign-in with the error shown. */
  async signInRejected(email: string, password: string): Promise<SignInPage> {
    await this.submit(email, password);
    await expect(this.problem).toBeFocused();
    return this;
  }

  /** Switches to the other language; the sign-in screen stays. */
  async switchLanguage(): Promise<SignInPage> {
    await this.languageSwitch.click();
    const next = new SignInPage(this.page, this.otherLocale);
    await next.expectLanguage();
    await next.expectShown();
    return next;
  }
}
