/**
 * Spec §5 rules as plain checks. Forms run them as the user submits without loading a schema
 * library (sign-in is on the first screen of a slow phone); the card API's yup schemas
 * (validation.ts) are built from the same checks, so the two can never disagree.
 * A check answers the first failing message key, or null. Messages are keys: views translate them.
 */
import { type Address, stateCodes } from './shared/address.ts';

export const ValidationMessage = {
  emailRequired: 'email.required',
  emailInvalid: 'email.invalid',
  passwordRequired: 'password.required',
  passwordTooShort: 'password.tooShort',
  passwordSpaces: 'password.spaces',
  /** Known from breaches or too common (the card API checks; the list is too large for the app). */
  passwordCommon: 'password.common',
  unlockCodeRequired: 'unlockCode.required',
  unlockCodeInvalid: 'unlockCode.invalid',
  unlockCodeObvious: 'unlockCode.obvious',
  unlockCodeMismatch: 'unlockCode.mismatch',
  firstNameRequired: 'firstName.required',
  lastNameRequired: 'lastName.required',
  nameInvalid: 'name.invalid',
  dobInvalid: 'dob.invalid',
  /** The right format, but no such day (02/30, month 13). */
  dobNotReal: 'dob.notReal',
  /** A real date, but in the future or before 1900. */
  dobOutOfRange: 'dob.outOfRange',
  dobUnder18: 'dob.under18',
  ssnInvalid: 'ssn.invalid',
  ssnItin: 'ssn.itin',
  phoneRequired: 'phone.required',
  /** Letters or other characters a phone number does not have. */
  phoneDigits: 'phone.digits',
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

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** Length in Unicode code points, not UTF-16 units: an emoji or a CJK extension letter is one character. */
const codePoints = (value: string) => [...value].length;

/**
 * Email (docs/rules.md): RFC 5322 §3.4.1 addr-spec with a dot-atom local part (§3.2.3: atext runs
 * joined by single dots; quoted strings are refused) and RFC 5321 §4.5.3.1 limits: local part at most
 * 64 octets, each domain label at most 63, the whole address at most 254 (the path limit of 256 less
 * its angle brackets). The domain must be deliverable on the public internet: at least two labels,
 * no trailing dot, no address literal, and a top-level label of letters (or an `xn--` IDN label).
 * ASCII only: the spec rejects accented characters (so every length is also an octet count).
 */
const atext = "[A-Za-z0-9!#$%&'*+\\-/=?^_`{|}~]";
const dotAtom = new RegExp(`^${atext}+(\\.${atext}+)*$`);
const domainLabel = /^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const topLevelLabel = /^([A-Za-z]{2,63}|xn--[A-Za-z0-9-]{1,59})$/;
/**
 * An id the card API gives out: any RFC 9562 UUID (the ledger derives version 8 ids from an
 * Idempotency-Key, which yup's uuid() would refuse), lower case as the database writes it.
 */
export const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const maxEmailLength = 254;
export const maxEmailLocalPartLength = 64;

function isDeliverableAddress(email: string): boolean {
  const at = email.lastIndexOf('@');
  const [local, domain] = [email.slice(0, at), email.slice(at + 1)];
  if (at < 1 || local.length > maxEmailLocalPartLength || !dotAtom.test(local)) return false;
  const labels = domain.split('.');
  return labels.length >= 2 && labels.every((label) => domainLabel.test(label)) && topLevelLabel.test(labels.at(-1)!);
}

/** The email as sent and stored: surrounding spaces dropped. */
export const normaliseEmail = (value: string) => value.trim();

export const checkEmail: Check = (value) => {
  const email = normaliseEmail(text(value));
  if (email === '') return ValidationMessage.emailRequired;
  if (email.length > maxEmailLength) return ValidationMessage.tooLong;
  return isDeliverableAddress(email) ? null : ValidationMessage.emailInvalid;
};

/**
 * A password as the server hashes and compares it: Unicode NFKC (NIST SP 800-63B §5.1.1.2), so "é"
 * typed as one character or as e + accent, or digits typed full-width, are the same password.
 */
export const normalisePassword = (password: string) => password.normalize('NFKC');

/**
 * Passwords (NIST SP 800-63B §5.1.1.2, rev. 4 §3.1.1.2): length in code points, and long
 * passphrases welcome (at least 64 must be allowed; 128 here, far under the body limit and scrypt's).
 */
export const maxPasswordLength = 128;
export const checkPassword: Check = (value) => {
  const password = normalisePassword(text(value));
  if (password === '') return ValidationMessage.passwordRequired;
  return codePoints(password) > maxPasswordLength ? ValidationMessage.tooLong : null;
};

/** A new password (spec §5): at least 8 characters, no spaces. */
export const minimumPasswordLength = 8;

/** Spaces and length are judged on the password as it is hashed (NFKC): e + combining accent ×8 is 4 letters. */
export const checkNewPassword: Check = (value) => {
  const password = normalisePassword(text(value));
  if (password === '') return ValidationMessage.passwordRequired;
  if (/\s/.test(password)) return ValidationMessage.passwordSpaces;
  if (codePoints(password) < minimumPasswordLength) return ValidationMessage.passwordTooShort;
  return codePoints(password) > maxPasswordLength ? ValidationMessage.tooLong : null;
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

/**
 * A name as checked, sent and stored: Unicode NFC (so `e` + combining acute, as some keyboards and
 * pasted text give it, is the one letter `é`, UAX #15) and trimmed.
 */
export const normaliseName = (value: string) => value.normalize('NFC').trim();

/** Names: letters (accented too), spaces, hyphens and apostrophes (spec §5); at most 50 characters. */
const namePattern = /^[\p{L}][\p{L} '’-]*$/u;
export const maxNameLength = 50;
const nameCheck =
  (required: ValidationMessage | null): Check =>
  (value) => {
    const name = normaliseName(text(value));
    if (name === '') return required;
    if (codePoints(name) > maxNameLength) return ValidationMessage.tooLong;
    return namePattern.test(name) ? null : ValidationMessage.nameInvalid;
  };
export const checkFirstName = nameCheck(ValidationMessage.firstNameRequired);
export const checkLastName = nameCheck(ValidationMessage.lastNameRequired);
export const checkMiddleName = nameCheck(null);

/** Digits only: phone, SSN and ZIP may be typed with spaces, dashes or brackets. */
export const digitsOf = (value: unknown) => text(value).replace(/\D/g, '');

/**
 * A US phone under the North American Numbering Plan (docs/rules.md): NPA-NXX-XXXX, where the area
 * code (NPA) and the exchange (NXX) each start with 2-9 and neither is an N11 service code (211-911).
 * No area code is N9X (held for the plan's expansion) or 37X / 96X (reserved by NANPA for
 * unanticipated purposes), and 555-0100 to 555-0199 are reserved for fiction in every area code:
 * none of them can receive a texted code.
 */
const isNanpCode = (code: string) => /^[2-9]\d\d$/.test(code) && code.slice(1) !== '11';
const isAreaCode = (code: string) => isNanpCode(code) && code[1] !== '9' && !/^(37|96)/.test(code);
const isFictional = (exchange: string, line: string) => exchange === '555' && line.startsWith('01');
export const checkPhone: Check = (value) => {
  const phone = digitsOf(value);
  // Digits with the usual separators ((), -, ., spaces, a leading +); anything else is a typo to name.
  if (/[^\d\s().+-]/.test(text(value))) return ValidationMessage.phoneDigits;
  if (phone === '') return ValidationMessage.phoneRequired;
  if (phone.length !== 10) return ValidationMessage.phoneLength;
  const [area, exchange, line] = [phone.slice(0, 3), phone.slice(3, 6), phone.slice(6)];
  return isAreaCode(area) && isNanpCode(exchange) && !isFictional(exchange, line) ? null : ValidationMessage.phoneInvalid;
};

/** A texted code (registration's phone check, sign-in's second step): exactly 6 digits, as the split input sends it. */
export const textedCodeLength = 6;
/** A whole texted code: exactly textedCodeLength digits. */
export const textedCodePattern = new RegExp(`^\\d{${textedCodeLength}}$`);
export const isTextedCode = (value: unknown): value is string => typeof value === 'string' && textedCodePattern.test(value);

/** A valid SSN: 9 digits, area not 000 or 666, group not 00, serial not 0000; 9xx is an ITIN. */
export const checkSsn: Check = (value) => {
  const ssn = digitsOf(value);
  if (ssn.length !== 9 || text(value).replace(/[\s-]/g, '') !== ssn) return ValidationMessage.ssnInvalid;
  if (ssn.startsWith('9')) return ValidationMessage.ssnItin;
  const [area, group, serial] = [ssn.slice(0, 3), ssn.slice(3, 5), ssn.slice(5)];
  return area === '000' || area === '666' || group === '00' || serial === '0000' ? ValidationMessage.ssnInvalid : null;
};

export const minimumAge = 18;

/**
 * Today's date where it begins last in the 50 states (Hawaii and the Aleutians, UTC−10), as a local
 * noon for checkDob. The card API checks an age as of this date: by its own clock (UTC) a Honolulu
 * applicant's 18th birthday would begin up to 10 hours early.
 */
export function todayInEveryState(now = new Date()): Date {
  const there = new Date(now.getTime() - 10 * 3_600_000);
  return new Date(there.getUTCFullYear(), there.getUTCMonth(), there.getUTCDate(), 12);
}

/** Date of birth MM/DD/YYYY (else dobInvalid), a real day (dobNotReal), past and from 1900 (dobOutOfRange), 18 or older on `today`. */
export function checkDob(value: unknown, today = new Date()): ValidationMessage | null {
  const match = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text(value).trim());
  if (!match) return ValidationMessage.dobInvalid;
  const [month, day, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  const real = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  // Today's calendar date where the check runs, as a UTC midnight like the date of birth: comparing
  // with the instant instead would call today's date "in the future" east of UTC.
  const todayUtc = Date.UTC(today.getFullYear(), today.getMonth(), today.getDate());
  if (!real) return ValidationMessage.dobNotReal;
  if (year < 1900 || date.getTime() > todayUtc) return ValidationMessage.dobOutOfRange;
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

/** `12345`, `12345-` and `123456789` become `12345` or `12345-6789`; anything else is kept (trimmed) for the check to refuse. */
export function normaliseZip(value: string): string {
  const zip = value.trim();
  if (!/^\d{5}(-?\d{4})?-?$/.test(zip)) return zip;
  const digits = digitsOf(zip);
  return digits.length === 9 ? `${digits.slice(0, 5)}-${digits.slice(5)}` : digits;
}

/** The address as the app sends it and the card API verifies and stores it: trimmed, state upper case, ZIP normalised. */
export function normaliseAddress(address: Address): Address {
  return {
    street1: address.street1.trim(),
    street2: address.street2.trim(),
    city: address.city.trim(),
    state: address.state.trim().toUpperCase(),
    zip: normaliseZip(address.zip),
  };
}

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
/** Manage account's change of unlock code: the current code is checked like the unlock screen's. */
export const currentUnlockCodeChecks = { currentUnlockCode: checkUnlockCode };

/** First failing message per field of a form. */
export function fieldErrors<T extends Record<string, unknown>, Message extends string = ValidationMessage>(
  checks: { [K in keyof T]: (value: unknown) => Message | null },
  value: T,
): Partial<Record<keyof T, Message>> {
  const errors: Partial<Record<keyof T, Message>> = {};
  for (const field of Object.keys(checks) as (keyof T)[]) {
    const message = checks[field](value[field]);
    if (message) errors[field] = message;
  }
  return errors;
}
