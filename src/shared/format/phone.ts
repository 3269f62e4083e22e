import { phoneDigits } from '../../../contract/rules.ts';

/** The spec's phone numbers are exactly 10 digits (US, no country code). */
const PHONE_DIGITS = 10;

/**
 * "(123) 456-7890" from any input holding 10 digits, e.g. "123-456-7890", "1234567890" or, with its
 * country code, "+1 123 456 7890" (phoneDigits). Any other input (including 11 digits with a leading 1
 * and no +) is returned unchanged, since it is not a spec phone number.
 */
export function formatPhone(digits: string): string {
  const d = phoneDigits(digits);
  if (d.length !== PHONE_DIGITS) return digits;
  return `(${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}`;
}
