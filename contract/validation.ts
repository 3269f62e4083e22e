/**
 * The card API's request schemas (yup, strict). Field rules of spec §5 come from the plain checks of
 * rules.ts, which the forms use too. Sign-in and unlock answer any failure with statusCode 2; the
 * registration calls tell a malformed body (statusCode 2) from a broken rule (statusCode 4 with
 * fieldErrors) with `checkBody`.
 */
import { array, boolean, mixed, object, type ObjectSchema, string, ValidationError } from 'yup';
import { checkCardExpiry, checkLastFour } from './cards/rules.ts';
import { agreed, agreementKinds, type AgreementKind } from './identity/types.ts';
import {
  checkEmail,
  checkNewEmail,
  checkNewPassword,
  checkNewUnlockCode,
  checkChangedUnlockCode,
  checkPassword,
  checkUnlockCode,
  codePoints,
  textedCodePattern,
} from './rules.ts';
import {
  addressChecks,
  checkDob,
  checkFirstName,
  checkLastName,
  checkMiddleName,
  checkPhone,
  checkSsn,
  todayInEveryState,
} from './identity/rules.ts';

/** The name of every test made from a rule: its failures are field errors, everything else is malformed. */
const ruleTest = 'rule';

/** A yup rule from a plain check of rules.ts: a string the check accepts. */
const fromCheck = (check: (value: unknown) => string | null) =>
  string().test(ruleTest, function rule(value) {
    const message = check(value);
    return message ? this.createError({ message }) : true;
  });

/** A required key holding a string the check accepts: a missing key or a non-string is malformed, a broken rule a field error. */
const ruleOf = (check: (value: unknown) => string | null) => fromCheck(check).defined();

export const emailRule = ruleOf(checkEmail);
export const unlockCodeRule = ruleOf(checkUnlockCode);
/** A texted code (rules.ts textedCodePattern); the app's split input only sends whole codes, so anything else is malformed. */
const textedCodeRule = string().matches(textedCodePattern);

/** POST /sign-in: `code` (6 digits) only on the second step of a sign-in with a texted code. */
export const signInSchema = object({
  email: emailRule,
  password: ruleOf(checkPassword),
  code: textedCodeRule.optional(),
}).noUnknown();

export const refreshTokensSchema = object({ unlockCode: unlockCodeRule }).noUnknown();

/** A flat object of at most `maxKeys` scalars: what user properties and error-report context may hold. */
function flatScalars(maxKeys: number, allowNull: boolean) {
  // Lengths in code points, as JSON Schema's maxLength counts them (the OpenAPI document says these).
  const isScalar = (inner: unknown) =>
    (typeof inner === 'string' && codePoints(inner) <= 500) ||
    (typeof inner === 'number' && Number.isFinite(inner)) ||
    typeof inner === 'boolean' ||
    (allowNull && inner === null);
  return mixed<Record<string, string | number | boolean | null>>().test({
    // Named with its limits, which the OpenAPI document writes as JSON Schema (contract/openapi.ts).
    name: 'flat-scalars',
    params: { maxKeys, allowNull },
    test: (value) => {
      if (value === undefined) return true;
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
      const entries = Object.entries(value);
      return entries.length <= maxKeys && entries.every(([key, inner]) => codePoints(key) <= 64 && isScalar(inner));
    },
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

/**
 * fieldErrors keys the card API uses beyond rules.ts's ValidationMessage: findings only the server
 * can make. The app translates them like the rule messages.
 */
export const ServerFieldError = {
  /** POST /register, /change-password: the mfaToken is empty, unknown, expired, spent or for another phone. */
  phoneUnverified: 'phone.unverified',
  /** POST /register: not every agreement (esign, terms, cardholder3) is 'agreed'. */
  legalRequired: 'legal.required',
  /** POST /register: a providersUuid without the companion app's token for that user (Companion-Authorization). */
  providersUuidUnverified: 'providersUuid.unverified',
  /** POST /reset-unlock-code: the ssnToken is unknown, expired, spent or another user's: verify the SSN again. */
  ssnTokenUnverified: 'ssnToken.unverified',
} as const;
export type ServerFieldError = (typeof ServerFieldError)[keyof typeof ServerFieldError];

/** POST /register: the address check's code (300-307) for the legal address, e.g. `address.304`. */
export const addressFieldError = (statusCode: number) => `address.${statusCode}`;

export type BodyCheck<T> =
  | { kind: 'valid'; value: T }
  | { kind: 'malformed' }
  | { kind: 'invalid'; fieldErrors: Record<string, string> };

/**
 * Validates a body strictly against a schema of `ruleOf` fields. A missing key, a wrong type, an
 * unknown key or a value outside a fixed list makes it malformed (statusCode 2); otherwise each field
 * whose rule fails gets that rule's message key, by dotted path (`addressLegal.zip`), statusCode 4.
 */
export function checkBody<T extends object>(schema: ObjectSchema<T>, body: unknown): BodyCheck<T> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { kind: 'malformed' };
  try {
    return { kind: 'valid', value: schema.validateSync(body, { strict: true, abortEarly: false }) as T };
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const failures = error.inner.length > 0 ? error.inner : [error];
    if (failures.some((failure) => failure.type !== ruleTest || !failure.path)) return { kind: 'malformed' };
    const fieldErrors: Record<string, string> = {};
    for (const failure of failures) fieldErrors[failure.path!] ??= String(failure.message);
    return { kind: 'invalid', fieldErrors };
  }
}

export const phoneRule = ruleOf(checkPhone);

/** POST /verify/email. */
export const verifyEmailSchema = object({ email: ruleOf(checkNewEmail) }).noUnknown();
/** POST /phone-number-in-use. */
export const phoneNumberInUseSchema = object({ phone: phoneRule }).noUnknown();
/** POST /request-verification: a phone failing checkPhone answers INVALID_PHONE_NUMBER (202). */
export const requestVerificationSchema = object({ phone: phoneRule }).noUnknown();
/** POST /verify-phone: the code is always 6 digits (the app's split input); anything else is malformed. */
export const verifyPhoneSchema = object({
  phone: phoneRule,
  code: textedCodeRule.defined(),
}).noUnknown();

const addressFields = {
  street1: ruleOf(addressChecks.street1),
  street2: ruleOf(addressChecks.street2),
  city: ruleOf(addressChecks.city),
  state: ruleOf(addressChecks.state),
  zip: ruleOf(addressChecks.zip),
};
/** The legal address of spec §3, inside POST /register. */
export const legalAddressSchema = object(addressFields).noUnknown().defined();
/** POST /verify-address; `addressType` is `legal` (the only kind spec §3 names). */
export const verifyAddressSchema = object({ ...addressFields, addressType: string().defined().oneOf(['legal']) }).noUnknown();

const agreementValue = string().nullable().defined().oneOf([agreed, null]);
/** `{esign, terms, cardholder3}`, each 'agreed' or null (spec §3). */
const legalShape = object({ esign: agreementValue, terms: agreementValue, cardholder3: agreementValue }).noUnknown().defined();

/** POST /accept-agreement (access token): records each agreement marked 'agreed'. */
export const acceptAgreementSchema = object({ legal: legalShape }).noUnknown();
/** GET /accepted-agreement?agreement=. */
export const acceptedAgreementQuery = object({ agreement: string().defined().oneOf(agreementKinds) }).noUnknown();
/** GET /agreement (anonymous): which agreement, in which language. */
export const agreementDocumentQuery = object({
  kind: string().defined().oneOf(agreementKinds),
  locale: string().defined().oneOf(['en', 'es']),
}).noUnknown();
export type AcceptedAgreementQuery = { agreement: AgreementKind };

/**
 * POST /set-unlock-code (access token): the current code (4 digits, the unlock rule: someone holding
 * an unlocked phone cannot replace it) and a new code, not an obvious one.
 */
export const setUnlockCodeSchema = object({
  currentUnlockCode: ruleOf(checkUnlockCode),
  unlockCode: ruleOf(checkNewUnlockCode).test(ruleTest, function changed(value) {
    const message = checkChangedUnlockCode((this.parent as { currentUnlockCode?: unknown }).currentUnlockCode, value);
    return message ? this.createError({ message }) : true;
  }),
}).noUnknown();

/** The proof of a verified phone (/verify-phone, /verify/reset-code): the server checks it; here only its shape. */
const mfaTokenRule = ruleOf((value) =>
  typeof value === 'string' && value.trim() !== '' && value.length <= 200 ? null : ServerFieldError.phoneUnverified,
);

/** POST /register (spec §3). The server also checks the mfaToken, the address and uniqueness. */
export const registrationSchema = object({
  firstName: ruleOf(checkFirstName),
  middleName: ruleOf(checkMiddleName),
  lastName: ruleOf(checkLastName),
  // 18 by the date in every state (checkDob's default), read on every request.
  dob: ruleOf((value) => checkDob(value)),
  ssn: ruleOf(checkSsn),
  email: ruleOf(checkNewEmail),
  phone: phoneRule,
  mfaToken: mfaTokenRule,
  addressLegal: legalAddressSchema,
  unlockCode: ruleOf(checkNewUnlockCode),
  legal: legalShape.test(ruleTest, function allAgreed(value) {
    const all = value !== undefined && value !== null && agreementKinds.every((kind) => value[kind] === agreed);
    return all ? true : this.createError({ message: ServerFieldError.legalRequired });
  }),
  providersUuid: string().nullable().defined().matches(/^[A-Za-z0-9_-]{1,64}$/),
  profile: string().nullable().defined().max(4000),
}).noUnknown();

/** POST /verify/ssn (password reset): the mfaToken of /verify/reset-code proves the phone first. */
export const verifySsnSchema = object({ email: ruleOf(checkEmail), ssn: ruleOf(checkSsn), mfaToken: mfaTokenRule }).noUnknown();
/** POST /verify/ssn/logged-in-refresh-token (refresh token). */
export const verifySsnLoggedInSchema = object({ ssn: ruleOf(checkSsn) }).noUnknown();
/** POST /reset-unlock-code (refresh token): the ssnToken of /verify/ssn/logged-in-refresh-token and a new code. */
export const resetUnlockCodeSchema = object({
  ssnToken: ruleOf((value) =>
    typeof value === 'string' && value.trim() !== '' && value.length <= 200 ? null : ServerFieldError.ssnTokenUnverified,
  ),
  unlockCode: ruleOf(checkNewUnlockCode),
}).noUnknown();
/** POST /change-password (spec §3 reset password payload). */
export const changePasswordSchema = object({
  email: ruleOf(checkEmail),
  ssn: ruleOf(checkSsn),
  password: ruleOf(checkNewPassword),
  mfaToken: mfaTokenRule,
}).noUnknown();
/** POST /reset-password (password reset, first step). */
export const sendResetCodeSchema = object({ email: ruleOf(checkEmail) }).noUnknown();
/** POST /verify/reset-code. */
export const verifyResetCodeSchema = object({ email: ruleOf(checkEmail), code: textedCodeRule.defined() }).noUnknown();

/** POST /verify/card-last-four. */
export const lastFourSchema = object({ lastFourCard: ruleOf(checkLastFour) }).noUnknown();
/**
 * POST /activate-card (spec §3 activation form): the expiry checked against the date in every state. A
 * card is good through its month's last day, and that day ends last in Hawaii: by the server's own
 * clock (UTC) the month would be over up to 10 hours early, refusing a card the form had accepted.
 */
export const activationSchema = object({
  lastFourCard: ruleOf(checkLastFour),
  expiry: ruleOf((value) => checkCardExpiry(value, todayInEveryState())),
}).noUnknown();
