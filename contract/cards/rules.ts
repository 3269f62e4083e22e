/**
 * Spec §5's card rules as plain checks, shared by the activation form and the card API (contract/rules.ts
 * explains the pattern). Kept apart from the shared rules: only the card screens load them.
 */
const text = (value: unknown) => (typeof value === 'string' ? value : '');

export const CardValidationMessage = {
  lastFourRequired: 'lastFour.required',
  lastFourInvalid: 'lastFour.invalid',
  expiryRequired: 'expiry.required',
  /** Not MM/YY, or a month outside 1-12. */
  expiryInvalid: 'expiry.invalid',
  /** A month already over: a card that has expired cannot be activated. */
  expiryPast: 'expiry.past',
} as const;

export type CardValidationMessage = (typeof CardValidationMessage)[keyof typeof CardValidationMessage];

/** Spec §5: the last 4 digits printed on the card. */
export function checkLastFour(value: unknown): CardValidationMessage | null {
  const digits = text(value).trim();
  if (digits === '') return CardValidationMessage.lastFourRequired;
  return /^\d{4}$/.test(digits) ? null : CardValidationMessage.lastFourInvalid;
}

/**
 * Spec §5: the card's expiry as printed, MM/YY: month 1 to 12, and not a month already over on `today`
 * (a card is good through the last day of its month). Two-digit years are 20YY.
 */
export function checkCardExpiry(value: unknown, today = new Date()): CardValidationMessage | null {
  const expiry = text(value).trim();
  if (expiry === '') return CardValidationMessage.expiryRequired;
  const match = /^(\d{2})\/(\d{2})$/.exec(expiry);
  const month = Number(match?.[1]);
  if (!match || month < 1 || month > 12) return CardValidationMessage.expiryInvalid;
  const year = 2000 + Number(match[2]);
  const thisMonth = today.getFullYear() * 12 + today.getMonth();
  return year * 12 + (month - 1) < thisMonth ? CardValidationMessage.expiryPast : null;
}

/** Spec §3 activation form. */
export const activationChecks = { lastFourCard: checkLastFour, expiry: checkCardExpiry };
