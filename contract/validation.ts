/**
 * The card API's request schemas (yup, strict). Field rules of spec §5 come from the plain checks of
 * rules.ts, which the forms use too; the server answers a failure with statusCode 2.
 */
import { array, boolean, mixed, object, string } from 'yup';
import { checkEmail, checkPassword, checkUnlockCode, type Check } from './rules.ts';

/** A yup rule from a plain check of rules.ts: a string the check accepts. */
const fromCheck = (check: Check) =>
  string().test('rule', function rule(value) {
    const message = check(value);
    return message ? this.createError({ message }) : true;
  });

export const emailRule = fromCheck(checkEmail);
export const unlockCodeRule = fromCheck(checkUnlockCode);

export const signInSchema = object({ email: emailRule, password: fromCheck(checkPassword) }).noUnknown();

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
