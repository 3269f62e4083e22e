/**
 * /register inside the sandbox companion host: the five steps of opening an account, driven by the
 * labels a person sees (in either language), with the texted code read from the sandbox outbox.
 */
import { expect, type APIRequestContext, type FrameLocator, type Page } from '@playwright/test';
import { axeViolations } from '../../support/accessibility.ts';
import { shown, type Locale } from '../../support/catalog.ts';
import { dobInWords } from '../../../src/features/identity/masks.ts';

export type Applicant = {
  firstName: string;
  lastName: string;
  dob: string;
  ssn: string;
  email: string;
  phone: string;
  street1: string;
  street2: string;
  city: string;
  state: string;
  zip: string;
  unlockCode: string;
};

const pick = (from: number, to: number) => from + Math.floor(Math.random() * (to - from + 1));

/** California's area codes, from Fresno's 559 to Los Angeles's 213: places, so every one is a phone the rules take. */
const geographicAreaCodes = ['559', '209', '213', '310', '415', '530', '619', '661', '707', '916'];
/** Real Fresno streets with none of the sandbox's address words (docs/sandbox.md). */
const streets = ['N Fresno St', 'E Shaw Ave', 'W Olive Ave', 'N Cedar Ave', 'E Kings Canyon Rd', 'N Palm Ave',
  'W Clinton Ave', 'E McKinley Ave', 'N Maroa Ave', 'W Herndon Ave', 'E Tulare St', 'N First St'];

/** A new applicant nobody has used: random SSN, phone, email and address (sandbox rules avoided). */
export function newApplicant(overrides: Partial<Applicant> = {}): Applicant {
  const run = crypto.randomUUID().slice(0, 8);
  return {
    firstName: 'Ana',
    lastName: 'Reyes',
    dob: '04/12/1990',
    ssn: `${pick(100, 665)}-${pick(10, 99)}-${pick(1000, 9999)}`,
    email: `applicant-${run}@providers.test`,
    // NANP: a geographic area code (docs/rules.md), an exchange 220-499 (never N11 nor a service
    // exchange: 555, 950, 958, 959); the line never the sandbox's landline or failing one (…0204, …0203).
    phone: `${geographicAreaCodes[pick(0, geographicAreaCodes.length - 1)]}${pick(2, 4)}${pick(20, 99)}${pick(1000, 9999)}`,
    // One account per address (CIP_TAKEN): about 1.2 million addresses, so a run's few dozen applicants
    // do not collide (with 9,900 they did, now and then).
    street1: `${pick(100, 99999)} ${streets[pick(0, streets.length - 1)]}`,
    street2: '',
    city: 'Fresno',
    state: 'CA',
    zip: '93701',
    unlockCode: '2468',
    ...overrides,
  };
}

export class RegisterPage {
  constructor(
    readonly page: Page,
    readonly app: FrameLocator,
    readonly locale: Locale = 'en',
    /** Whether each step runs axe on its screen: one flow per language does, so each screen is checked once. */
    readonly checksEachStep = true,
  ) {}

  t(source: string): string {
    return shown(this.locale, source);
  }

  heading(source: string) {
    return this.app.getByRole('heading', { name: this.t(source), exact: true });
  }

  field(source: string) {
    return this.app.getByLabel(this.t(source), { exact: true });
  }

  button(source: string) {
    return this.app.getByRole('button', { name: this.t(source), exact: true });
  }

  private async expectStepAccessible(): Promise<void> {
    if (this.checksEachStep) await this.expectAccessible();
  }

  /** axe (WCAG 2.2 AA) on the card app frame only. */
  async expectAccessible(): Promise<void> {
    const app = this.page.frame({ name: 'card-app' });
    expect(app, 'the card app frame').not.toBeNull();
    expect(await axeViolations(app!), 'axe violations in the app').toEqual([]);
  }

  async personalInfo(applicant: Applicant): Promise<void> {
    await expect(this.heading('Tell us about yourself')).toBeVisible();
    await this.expectStepAccessible();
    await this.field('First name').fill(applicant.firstName);
    await this.field('Last name').fill(applicant.lastName);
    await this.field('Date of birth (MM/DD/YYYY)').fill(applicant.dob);
    // Read back in words with the field, so a day typed first is seen before it is sent; a date that does
    // not exist is not. An earlier try's problem with the date goes once another is typed.
    const words = dobInWords(applicant.dob, this.locale);
    await expect(this.field('Date of birth (MM/DD/YYYY)')).toHaveAccessibleDescription(words ? this.t("That's {dobWords}.").replace('{dobWords}', words) : '');
    await this.field('Social Security number').fill(applicant.ssn);
    await this.field('Email').fill(applicant.email);
    await this.button('Continue').click();
  }

  /** Sends the texted code request for the applicant's phone. */
  async requestCode(applicant: Applicant): Promise<void> {
    await expect(this.heading('Verify your phone')).toBeVisible();
    await this.expectStepAccessible();
    await this.field('Mobile phone number').fill(applicant.phone);
    await this.button('Send code').click();
    await expect(this.app.getByRole('group', { name: this.t('Texted code') })).toBeVisible();
  }

  /** Puts the code into the split boxes, one digit per box, checks they show it, and submits it. */
  async enterCode(code: string): Promise<void> {
    const boxes = this.app.getByRole('group', { name: this.t('Texted code') }).getByRole('textbox');
    for (const [index, digit] of [...code].entries()) await boxes.nth(index).fill(digit);
    for (const [index, digit] of [...code].entries()) await expect(boxes.nth(index)).toHaveValue(digit);
    await this.button('Verify').click();
  }

  async address(applicant: Applicant): Promise<void> {
    await expect(this.heading('Your legal address')).toBeVisible();
    await this.expectStepAccessible();
    await this.field('Street address').fill(applicant.street1);
    await this.field('Apartment or unit (optional)').fill(applicant.street2);
    await this.field('City').fill(applicant.city);
    await this.field('State').selectOption(applicant.state);
    await this.field('ZIP code').fill(applicant.zip);
    await this.button('Continue').click();
  }

  async unlockCode(applicant: Applicant): Promise<void> {
    await expect(this.heading('Choose an unlock code')).toBeVisible();
    await this.expectStepAccessible();
    await this.field('Unlock code').fill(applicant.unlockCode);
    await this.field('Confirm unlock code').fill(applicant.unlockCode);
    await this.button('Continue').click();
  }

  async agreements(): Promise<void> {
    await expect(this.heading('Review and accept the agreements')).toBeVisible();
    // The fees come first, in the short form, before anything is agreed.
    await expect(this.heading('Fees for your Providers account')).toBeVisible();
    // The long form one tap away: every fee, with when it is charged (12 CFR 1005.18(b)(4)(ii)).
    await this.app.getByText(this.t('See every fee (long form)'), { exact: true }).click();
    await expect(this.app.getByText(this.t('To replace a damaged card. A lost or stolen card is replaced free.'), { exact: true })).toBeVisible();
    await this.expectStepAccessible();
    // Each agreement can be read from beside its checkbox, in the screen's language; Escape closes it
    // and focus comes back to the button.
    const read = this.button('Read the Terms of use');
    await read.click();
    const dialog = this.app.getByRole('dialog', { name: this.locale === 'es' ? 'Términos de uso' : 'Terms of use' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText(/^(Version|Versión) \d{4}-\d{2}-\d{2}$/)).toBeVisible();
    await this.expectStepAccessible();
    await this.page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(read).toBeFocused();
    // Sent from the keyboard with nothing agreed: the first box takes the focus and shows it, in its error.
    await this.button('Agree and open my account').press('Enter');
    const first = this.field('I agree to the E-Sign Agreement');
    await expect(first).toBeFocused();
    await expect(first).toHaveAttribute('aria-invalid', 'true');
    expect(await first.evaluate((box) => getComputedStyle(box).outlineColor), 'the focus ring, not the error colour').toBe('rgb(26, 86, 219)');
    for (const agreement of ['I agree to the E-Sign Agreement', 'I agree to the Terms of use', 'I agree to the Cardholder Agreement']) {
      await this.field(agreement).check();
    }
    await this.button('Agree and open my account').click();
  }
}

/** The newest code the sandbox SMS partner texted to `phone` (digits). */
export async function textedCode(request: APIRequestContext, phone: string): Promise<string> {
  let code = '';
  await expect
    .poll(async () => {
      const answer = await request.get(`/sandbox/outbox?phone=${phone}`);
      const { messages } = (await answer.json()) as { messages: { code: string }[] };
      code = messages[0]?.code ?? '';
      return code;
    })
    .toMatch(/^\d{6}$/);
  return code;
}
