/**
 * Validation rules of spec §5 shared by forms and the card API. Messages are keys, never text:
 * the app translates them (src/flows/validationMessages.ts), the server answers with statusCodes.
 */
import { array, boolean, mixed, object, string } from 'yup';

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

/** A flat object of at most `maxKeys` scalars: what user properties and error-report context may hold. */
function flatScalars(maxKeys: number, allowNull: boolean) {
  return mixed<Record<string, string | number | boolean | null>>().test('flat-scalars', (value) => {
    if (value === undefined) return true;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
    const entries = Object.entries(value);
    return (
      entries.length <= maxKeys &&
      entries.every(
        ([key, inner]) =>
          key.length <= 64 &&
          ((typeof inner === 'string' && inner.length <= 500) ||
            (typeof inner === 'number' && Number.isFinite(inner)) ||
            typeof inner === 'boolean' ||
            (allowNull && inner === null)),
      )
    );
  });
}

export const analyticsBatchSchema = object({
  events: array(
    object({
      name: string().required().max(80),
      at: string().required().max(40),
      sessionId: string().required().max(64),
      properties: object().default({}),
    }),
  )
    .required()
    .max(50),
  userProperties: flatScalars(30, false),
}).noUnknown();

/** Spec §6 flags: exactly these four booleans. */
export const experimentFlagsSchema = object({
  virtualCards: boolean().required(),
  directDeposit: boolean().required(),
  cashLoadMap: boolean().required(),
  showNewDebitDetails: boolean().required(),
})
  .required()
  .noUnknown();

export const errorReportBatchSchema = object({
  reports: array(
    object({
      level: string().required().oneOf(['warning', 'error']),
      message: string().required().max(500),
      at: string().required().max(40),
      context: flatScalars(30, true).required(),
    }).noUnknown(),
  )
    .required()
    .max(20),
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
