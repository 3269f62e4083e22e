/** Input masks of the registration forms: what a field shows as the user types. */
import { normaliseDob } from '../../../machines/identity/registrationFieldRules.ts';
import type { Locale } from '../../../contract/shared/locale.ts';
import { checkDob } from '../../../contract/identity/rules.ts';
import { ValidationMessage } from '../../../contract/rules.ts';
import { formatDate } from '../../shared/format/date.ts';

/** ZIP `#####-####` (spec §5): digits only, a dash after the fifth. */
export function maskZip(value: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 9);
  return digits.length > 5 ? `${digits.slice(0, 5)}-${digits.slice(5)}` : digits;
}

/**
 * Date of birth `MM/DD/YYYY`: slashes typed by the user are kept while each part fits (so `1/5/1990`
 * stays, the chart pads it on submit); digits typed alone get the slashes put in for them.
 */
export function maskDob(value: string): string {
  // A whole date pasted or autofilled with other separators (1990-01-15, 1-5-1990, 1.5.1990) is
  // written the form's way; its digits alone would be read in the wrong order (19/90/0115).
  if (!value.includes('/') && /\d[-.\s]\d/.test(value)) {
    const whole = normaliseDob(value);
    if (/^\d{2}\/\d{2}\/\d{4}$/.test(whole)) return whole;
  }
  const cleaned = value.replace(/[^\d/]/g, '').slice(0, 10);
  const parts = cleaned.split('/');
  const limits = [2, 2, 4];
  if (parts.length <= 3 && parts.every((part, index) => part.length <= limits[index]!)) return cleaned;
  const digits = cleaned.replace(/\D/g, '').slice(0, 8);
  if (digits.length <= 2) return digits;
  if (digits.length <= 4) return `${digits.slice(0, 2)}/${digits.slice(2)}`;
  return `${digits.slice(0, 2)}/${digits.slice(2, 4)}/${digits.slice(4)}`;
}

/** The route's optional step param as a step request: absent is 1, anything not 1-5 is 0 (refused). */
export function routeStepOf(param: string | undefined): number {
  if (param === undefined || param === '') return 1;
  return /^[1-5]$/.test(param) ? Number(param) : 0;
}

/**
 * A whole date of birth as typed, in words ("Mar 5, 1990", "5 de marzo de 1990"), or null until it is
 * a real date: many who write in Spanish put the day first, and 05/03/1990 is then read back as May 3
 * before it is sent, not found wrong by identity verification.
 */
export function dobInWords(value: string, locale: Locale): string | null {
  const dob = normaliseDob(value);
  // A real date in the rules' range (checkDob: 1900 to today); under 18 is read back too, as it is a date.
  const problem = checkDob(dob);
  if (problem !== null && problem !== ValidationMessage.dobUnder18) return null;
  const [month, day, year] = dob.split('/');
  return formatDate(`${year}-${month}-${day}`, locale, 'sentence');
}
