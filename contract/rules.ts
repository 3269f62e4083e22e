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
  unlockCodeRequired: 'unlockCode.required',
  unlockCodeInvalid: 'unlockCode.invalid',
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

export const checkUnlockCode: Check = (value) => {
  const code = text(value);
  if (code === '') return ValidationMessage.unlockCodeRequired;
  return /^\d{4}$/.test(code) ? null : ValidationMessage.unlockCodeInvalid;
};

export const signInChecks = { email: checkEmail, password: checkPassword };
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
