/**
 * New passwords are checked against passwords known from breaches and common choices (NIST SP
 * 800-63B §3.1.1.2): the ~49,000 of zxcvbn-ts's maintained list (@zxcvbn-ts/language-common), compared
 * without case, as guessers try every case. Server-side only: the list stays out of the web app.
 */
import { dictionary } from '@zxcvbn-ts/language-common';

const common = new Set(dictionary['passwords-common']);

export const isCommonPassword = (password: string): boolean => common.has(password.toLowerCase());

/**
 * The words a guesser tries first for this cardholder (§3.1.1.2's context-specific words): the
 * service's name, the email and its part before the @, and the names, anywhere in the password and
 * in any case. Words under 4 letters are left out, or a short name would refuse many passwords.
 */
export function isExpectedPassword(password: string, owner: { email: string; firstName: string; lastName: string }): boolean {
  const typed = password.toLowerCase();
  const words = ['providers', owner.email, owner.email.split('@')[0]!, owner.firstName, owner.lastName];
  return words.map((word) => word.normalize('NFKC').toLowerCase().trim()).some((word) => word.length >= 4 && typed.includes(word));
}
