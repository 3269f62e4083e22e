/**
 * New passwords are checked against passwords known from breaches and common choices (NIST SP
 * 800-63B §3.1.1.2): the ~49,000 of zxcvbn-ts's maintained list (@zxcvbn-ts/language-common), compared
 * without case, as guessers try every case. Server-side only: the list stays out of the web app.
 */
import { dictionary } from '@zxcvbn-ts/language-common';

const common = new Set(dictionary['passwords-common']);

export const isCommonPassword = (password: string): boolean => common.has(password.toLowerCase());
