/**
 * Spec §5 rules as plain checks. Forms run them as the user submits without loading a schema
 * library (sign-in is on the first screen of a slow phone); the card API's yup schemas
 * (validation.ts) are built from the same checks, so the two can never disagree.
 * A check answers the first failing message key, or null. Messages are keys: views translate them.
 */
import { stateCodes } from './shared/address.ts';

export const ValidationMessage = {
  emailRequired: 'email.required',
  emailInvalid: 'email.invalid',
  passwordRequired: 'password.required',
  passwordTooShort: 'password.tooShort',
  passwordSpaces: 'password.spaces',
  unlockCodeRequired: 'unlockCode.required',
  unlockCodeInvalid: 'unlockCode.invalid',
  unlockCodeObvious: 'unlockCode.obvious',
  unlockCodeMismatch: 'unlockCode.mismatch',
  firstNameRequired: 'firstName.required',
  lastNameRequired: 'lastName.required',
  nameInvalid: 'name.invalid',
  dobInvalid: 'dob.invalid',
  dobUnder18: 'dob.under18',
  ssnInvalid: 'ssn.invalid',
  ssnItin: 'ssn.itin',
  phoneRequired: 'phone.required',
  phoneLength: 'phone.length',
  phoneInvalid: 'phone.invalid',
  street1Required: 'street1.required',
  cityRequired: 'city.required',
  stateRequired: 'state.required',
  stateInvalid: 'state.invalid',
  zipRequired: 'zip.required',
  zipInvalid: 'zip.invalid',
  tooLong: 'tooLong',
} as const;

export type ValidationMessage = (typeof ValidationMessage)[keyof typeof ValidationMessage];

export type Check = (value: unknown) => ValidationMessage | null;

/** ASCII only: the spec rejects accented characters in email addresses. */
const emailPattern = /^[A-Za-z0-9._%+'-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/;

const text = (value: unknown) => (typeof value === 'string' ? value : '');

export const checkEmail: Check = (value) => {
  const email = text(value).trim();
  if (email === '') return ValidationMessage.emailRequired;
  if (email.length > 254) return ValidationMessage.tooLong;
  return emailPattern.test(email) ? null : ValidationMessage.emailInvalid;
};

export const checkPassword: Check = (value) => {
  const password = text(value);
  if (password === '') return ValidationMessage.passwordRequired;
  return password.length > 128 ? ValidationMessage.tooLong : null;
};

/** A new password (spec §5): at least 8 characters, no spaces. */
export const minimumPasswordLength = 8;
export const checkNewPassword: Check = (value) => {
  const password = text(value);
  if (password === '') return ValidationMessage.passwordRequired;
  if (/\s/.test(password)) return ValidationMessage.passwordSpaces;
  if (password.length < minimumPasswordLength) return ValidationMessage.passwordTooShort;
  return password.length > 128 ? ValidationMessage.tooLong : null;
};

export const checkUnlockCode: Check = (value) => {
  const code = text(value);
  if (code === '') return ValidationMessage.unlockCodeRequired;
  return /^\d{4}$/.test(code) ? null : ValidationMessage.unlockCodeInvalid;
};

/** A new unlock code: 4 digits, and not one a thief would try first (1111, 1234, 4321 …). */
export const checkNewUnlockCode: Check = (value) => checkUnlockCode(value) ?? (isObviousCode(text(value)) ? ValidationMessage.unlockCodeObvious : null);

export function isObviousCode(code: string): boolean {
  const digits = [...code].map(Number);
  const steps = digits.slice(1).map((digit, i) => digit - digits[i]!);
  return steps.every((step) => step === 0) || steps.every((step) => step === 1) || steps.every((step) => step === -1);
}

/** The confirmation must repeat the new code. */
export const checkUnlockCodeConfirmation = (code: unknown, confirmation: unknown): ValidationMessage | null =>
  text(confirmation) === text(code) ? null : ValidationMessage.unlockCodeMismatch;

/** Names: letters (accented too), spaces, hyphens and apostrophes (spec §5). */
const namePattern = /^[\p{L}][\p{L} '’-]*$/u;
const nameCheck =
  (required: ValidationMessage | null): Check =>
  (value) => {
    const name = text(value).trim();
    if (name === '') return required;
    if (name.length > 50) return ValidationMessage.tooLong;
    return namePattern.test(name) ? null : ValidationMessage.nameInvalid;
  };
export const checkFirstName = nameCheck(ValidationMessage.firstNameRequired);
export const checkLastName = nameCheck(ValidationMessage.lastNameRequired);
export const checkMiddleName = nameCheck(null);

/** Digits only: phone, SSN and ZIP may be typed with spaces, dashes or brackets. */
export const digitsOf = (value: unknown) => text(value).replace(/\D/g, '');

export const checkPhone: Check = (value) => {
  const phone = digitsOf(value);
  if (phone === '') return ValidationMessage.phoneRequired;
  if (phone.length !== 10) return ValidationMessage.phoneLength;
  return phone.startsWith('1') || phone.startsWith('0') ? ValidationMessage.phoneInvalid : null;
};

/** A valid SSN: 9 digits, area not 000 or 666, group not 00, serial not 0000; 9xx is an ITIN. */
export const checkSsn: Check = (value) => {
  const ssn = digitsOf(value);
  if (ssn.length !== 9 || text(value).replace(/[\s-]/g, '') !== ssn) return ValidationMessage.ssnInvalid;
  if (ssn.startsWith('9')) return ValidationMessage.ssnItin;
  const [area, group, serial] = [ssn.slice(0, 3), ssn.slice(3, 5), ssn.slice(5)];
  return area === '000' || area === '666' || group === '00' || serial === '0000' ? ValidationMessage.ssnInvalid : null;
};

export const minimumAge = 18;

/** Date of birth MM/DD/YYYY, a real past date, 18 or older on `today`. */
export function checkDob(value: unknown, today = new Date()): ValidationMessage | null {
  const match = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text(value).trim());
  if (!match) return ValidationMessage.dobInvalid;
  const [month, day, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  const real = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  // Today's calendar date where the check runs, as a UTC midnight like the date of birth: comparing
  // with the instant instead would call today's date "in the future" east of UTC.
  const todayUtc = Date.UTC(today.getFullYear(), today.getMonth(), today.getDate());
  if (!real || year < 1900 || date.getTime() > todayUtc) return ValidationMessage.dobInvalid;
  const eighteenth = Date.UTC(year + minimumAge, month - 1, day);
  return eighteenth <= todayUtc ? null : ValidationMessage.dobUnder18;
}

const requiredText =
  (required: ValidationMessage, max = 100): Check =>
  (value) => {
    const field = text(value).trim();
    if (field === '') return required;
    return field.length > max ? ValidationMessage.tooLong : null;
  };
export const checkStreet1 = requiredText(ValidationMessage.street1Required);
export const checkCity = requiredText(ValidationMessage.cityRequired, 50);
/** Apartment or unit: optional here; the address check says when it is required or wrong (301, 302). */
export const checkStreet2: Check = (value) => (text(value).trim().length > 50 ? ValidationMessage.tooLong : null);

export const checkState: Check = (value) => {
  if (text(value) === '') return ValidationMessage.stateRequired;
  return (stateCodes as readonly string[]).includes(text(value)) ? null : ValidationMessage.stateInvalid;
};

/** ZIP: 5 or 9 digits, typed with the mask #####-#### (accepted lengths 5, 6 and 10). */
export const checkZip: Check = (value) => {
  const zip = text(value).trim();
  if (zip === '') return ValidationMessage.zipRequired;
  return /^\d{5}(-?|-\d{4})$/.test(zip) ? null : ValidationMessage.zipInvalid;
};

export const signInChecks = { email: checkEmail, password: checkPassword };
export const personalInfoChecks = {
  firstName: checkFirstName,
  middleName: checkMiddleName,
  lastName: checkLastName,
  dob: (value: unknown) => checkDob(value),
  ssn: checkSsn,
  email: checkEmail,
};
export const phoneChecks = { phone: checkPhone };
export const addressChecks = { street1: checkStreet1, street2: checkStreet2, city: checkCity, state: checkState, zip: checkZip };
export const refreshTokensChecks = { unlockCode: checkUnlockCode };

/** First failing message per field of a form. */
export function fieldErrors<T extends Record<string, unknown>>(
  checks: { [K in keyof T]: Check },
  value: T,
): Partial<Record<keyof T, ValidationMessage>> {
  const errors: Partial<Record<keyof T, ValidationMessage>> = {};
  for (const field of Object.keys(checks) as (keyof T)[]) {
    const message = checks[field](value[field]);
    if (message) errors[field] = message;
  }
  return errors;
}
