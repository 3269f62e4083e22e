/**
 * Validation rules of spec §5 shared by forms and the card API. Messages are keys, never text:
 * the app translates them (src/flows/validationMessages.ts), the server answers with statusCodes.
 */
import { array, object, string } from 'yup';

export const ValidationMessage = {
  emailRequired: 'email.required',
  emailInvalid: 'email.invalid',
  passwordRequired: 'password.required',
  unlockCodeRequired: 'unlockCode.required',
  unlockCodeInvalid: 'unlockCode.invalid',
  tooLong: 'tooLong',
} as const;

export type ValidationMessage = (typeof ValidationMessage)[keyof typeof ValidationMessage];

/** ASCII only: the spec rejects accented characters in email addresses. */
const emailPattern = /^[A-Za-z0-9._%+'-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/;

export const emailRule = string()
  .trim()
  .required(ValidationMessage.emailRequired)
  .max(254, ValidationMessage.tooLong)
  .matches(emailPattern, { message: ValidationMessage.emailInvalid, excludeEmptyString: true });

export const unlockCodeRule = string()
  .required(ValidationMessage.unlockCodeRequired)
  .matches(/^\d{4}$/, { message: ValidationMessage.unlockCodeInvalid, excludeEmptyString: true });

export const signInSchema = object({
  email: emailRule,
  password: string().required(ValidationMessage.passwordRequired).max(128, ValidationMessage.tooLong),
}).noUnknown();

export const refreshTokensSchema = object({ unlockCode: unlockCodeRule }).noUnknown();

export const analyticsBatchSchema = object({
  events: array(
    object({
      name: string().required().max(80),
      at: string().required().max(40),
      properties: object().default({}),
    }),
  )
    .required()
    .max(50),
}).noUnknown();

/** First failing message per field, for forms. */
export function fieldErrors<T extends Record<string, unknown>>(
  schema: { validateSync: (value: unknown, options: { abortEarly: false }) => unknown },
  value: T,
): Partial<Record<keyof T, ValidationMessage>> {
  try {
    schema.validateSync(value, { abortEarly: false });
    return {};
  } catch (error) {
    const errors: Partial<Record<keyof T, ValidationMessage>> = {};
    const inner = (error as { inner?: { path?: string; message: string }[] }).inner ?? [];
    for (const issue of inner) {
      const field = issue.path as keyof T | undefined;
      if (field && !errors[field]) errors[field] = issue.message as ValidationMessage;
    }
    return errors;
  }
}
