/**
 * Spec §5 rules as plain checks. Forms run them as the user submits without loading a schema
 * library (sign-in is on the first screen of a slow phone); the card API's yup schemas
 * (validation.ts) are built from the same checks, so the two can never disagree.
 * A check answers the first failing message key, or null. Messages are keys: views translate them.
 */
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
  /** A change to the code it already is: saving it would say "changed" while nothing changed. */
  unlockCodeUnchanged: 'unlockCode.unchanged',
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
  /** Not 10 digits, or a letter among them (spec §5 has one message for both). */
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

/** A form value as text: anything else is the empty string. */
export const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** Length in Unicode code points, not UTF-16 units: an emoji or a CJK extension letter is one character. */
export const codePoints = (value: string) => [...value].length;

/**
 * Email (docs/rules.md): RFC 5322 §3.4.1 addr-spec with a dot-atom local part (§3.2.3: atext runs
 * joined by single dots; quoted strings are refused) and RFC 5321 §4.5.3.1 limits: local part at most
 * 64 octets, each domain label at most 63, the whole address at most 254 (the path limit of 256 less
 * its angle brackets). The domain must be deliverable on the public internet: at least two labels,
 * no trailing dot, no address literal, and a top-level label of letters (or an `xn--` IDN label).
 * ASCII only: the spec rejects accented characters (so every length is also an octet count).
 * `checkEmail` finds an account by its address (sign-in, reset): an address the account was opened
 * with still works. `checkNewEmail` is for an address given for a new account: no label may have
 * hyphens in its third and fourth places there (`reservedLabel`). `xn--` is an accented (or other
 * non-ASCII) name spelled in ASCII (IDNA's punycode), and Chromium turns `ana@exámple.com` typed in an
 * `<input type="email">` into `ana@xn--exmple-qta.com`, which would get past the spec's rule.
 */
const atext = "[A-Za-z0-9!#$%&'*+\\-/=?^_`{|}~]";
const dotAtom = new RegExp(`^${atext}+(\\.${atext}+)*$`);
const domainLabel = /^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const topLevelLabel = /^([A-Za-z]{2,63}|xn--[A-Za-z0-9-]{1,59})$/;
/**
 * A label with hyphens in its third and fourth places: reserved (RFC 5891 §4.2.3.1), for IDNA's
 * ASCII-compatible encoding of a non-ASCII label (`xn--`, RFC 5890 §2.3.2.1, in any case) and for
 * encodings to come (`ab--cd`), so no registry gives one out.
 */
const reservedLabel = /^..--/;
/**
 * An id the card API gives out: any RFC 9562 UUID (the ledger derives version 8 ids from an
 * Idempotency-Key, which yup's uuid() would refuse). Given out in lower case, as the database writes
 * it, and read in either case (RFC 9562 §4: "case insensitive on input"; some clients' UUID types
 * write upper case): PostgreSQL's uuid columns compare them alike, and where the server compares one
 * itself it takes `canonicalUuid`. Spelled out, not with the `i` flag, so the OpenAPI document's
 * pattern (the regex's source) says the same.
 */
export const uuidPattern = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
/** A UUID as the card API writes it (RFC 9562 §4: lower case). */
export const canonicalUuid = (id: string): string => id.toLowerCase();

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
  // Spec §5 has one message for an address that cannot be used, however long it is.
  return email.length <= maxEmailLength && isDeliverableAddress(email) ? null : ValidationMessage.emailInvalid;
};

/** An address for a new account: as checkEmail, and no reserved label (`xn--`: an accented name in ASCII). */
export const checkNewEmail: Check = (value) => {
  const labels = normaliseEmail(text(value)).split('@').at(-1)!.split('.');
  return checkEmail(value) ?? (labels.some((label) => reservedLabel.test(label)) || specialUseName.test(labels.at(-1)!) ? ValidationMessage.emailInvalid : null);
};
/**
 * Top-level names reserved so that no mail can reach them: .example, .invalid, .localhost (RFC 2606,
 * 6761), .local (multicast DNS, RFC 6762), .onion (RFC 7686). Not .test: the sandbox's own addresses.
 */
const specialUseName = /^(example|invalid|local|localhost|onion)$/i;

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

/**
 * Spaces are judged on the password as typed: any whitespace, the no-break space and the ideographic
 * space (U+3000) too. Not after NFKC, which spells a standalone accent (´ U+00B4, ¨, ¯, ¸, ˜) as a
 * space and a combining mark: `contra´seña1` has no space in it. Length is judged on the password as
 * it is hashed (NFKC): e + combining accent ×8 is 4 letters.
 */
export const checkNewPassword: Check = (value) => {
  const password = normalisePassword(text(value));
  if (password === '') return ValidationMessage.passwordRequired;
  // \s and the next line (U+0085), a Unicode space JavaScript's \s leaves out.
  if (/[\s\u0085]/.test(text(value))) return ValidationMessage.passwordSpaces;
  if (codePoints(password) < minimumPasswordLength) return ValidationMessage.passwordTooShort;
  return codePoints(password) > maxPasswordLength ? ValidationMessage.tooLong : null;
};

export const checkUnlockCode: Check = (value) => {
  const code = text(value);
  if (code === '') return ValidationMessage.unlockCodeRequired;
  return /^\d{4}$/.test(code) ? null : ValidationMessage.unlockCodeInvalid;
};

/** A new unlock code: 4 digits, and not one a thief would try first (1111, 1234, 4321, 1212 …). */
export const checkNewUnlockCode: Check = (value) => checkUnlockCode(value) ?? (isObviousCode(text(value)) ? ValidationMessage.unlockCodeObvious : null);

/**
 * NIST SP 800-63B's repetitive or sequential digits: one digit repeated (1111), a run up or down, also
 * past 9 or 0 (1234, 4321, 7890, 0987), two digits repeated (1212, 6969) or each doubled (1122).
 */
export function isObviousCode(code: string): boolean {
  const digits = [...code].map(Number);
  const steps = new Set(digits.slice(1).map((digit, i) => (digit - digits[i]! + 10) % 10));
  const run = steps.size === 1 && (steps.has(0) || steps.has(1) || steps.has(9));
  return run || /^(\d\d)\1$|^(\d)\2(\d)\3$/.test(code);
}

/** A changed code differs from the current one (Manage account, POST /set-unlock-code). */
export const checkChangedUnlockCode = (current: unknown, code: unknown): ValidationMessage | null =>
  text(code) === text(current) ? ValidationMessage.unlockCodeUnchanged : null;

/** The confirmation must repeat the new code. */
export const checkUnlockCodeConfirmation = (code: unknown, confirmation: unknown): ValidationMessage | null =>
  text(confirmation) === text(code) ? null : ValidationMessage.unlockCodeMismatch;

/** Digits only: phone, SSN and ZIP may be typed with spaces, dashes or brackets. */
export const digitsOf = (value: unknown) => text(value).replace(/\D/g, '');

/**
 * A US phone's own digits: a leading +1, the country code in E.164's form (+1 559 555 0123, as a
 * contact or autofill may give it), is not part of the number. A 1 without the + is left: spec §5
 * refuses a number starting with 1.
 */
export const phoneDigits = (value: unknown) => digitsOf(text(value).replace(/^\s*\+[\s().-]*1/, ''));

/** A texted code (registration's phone check, sign-in's second step): exactly 6 digits, as the split input sends it. */
export const textedCodeLength = 6;
/** A whole texted code: exactly textedCodeLength digits. */
export const textedCodePattern = new RegExp(`^[0-9]{${textedCodeLength}}$`);
export const isTextedCode = (value: unknown): value is string => typeof value === 'string' && textedCodePattern.test(value);

export const signInChecks = { email: checkEmail, password: checkPassword };
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
