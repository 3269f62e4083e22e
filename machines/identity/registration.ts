/**
 * Registration (spec §2 /register/:step?, §3 registration payload, §4 registration status, §5 rules,
 * §7 calls, §8 codes): INPUTTING (five steps) → PROCESSING → SUCCESS | FAILURE (denied, CIP taken).
 *
 * Steps, in order: 1 personal info (then POST /verify/email), 2 phone (POST /phone-number-in-use,
 * /request-verification, /verify-phone), 3 legal address (POST /verify-address), 4 unlock code,
 * 5 agreements, then POST /register. The route's step param is fed back as `user.goToStep`: the chart
 * moves back to any earlier step, or forward to a step it has already reached; the view follows it.
 *
 * The calls are `fromPromise` actors named after them; storing the session, saving the draft,
 * analytics and navigation are named actions. The app supplies all of them with `.provide()`.
 * Context holds the typed fields and codes (validation keys, statusCodes), never translated text.
 * The draft the app persists (`draftOf`) never holds the SSN or the unlock code.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import {
  agreed,
  agreementKinds,
  stateCodes,
  type AgreementKind,
  type LegalAddress,
  type Legal,
  type PhoneInUseAnswer,
  type RegistrationPayload,
  type RegistrationResult,
  type RequestVerificationAnswer,
  type VerifyAddressAnswer,
  type VerifyEmailAnswer,
  type VerifyPhoneAnswer,
} from '../../contract/registration.ts';
import {
  addressChecks,
  checkNewUnlockCode,
  checkPhone,
  checkUnlockCodeConfirmation,
  digitsOf,
  fieldErrors,
  personalInfoChecks,
} from '../../contract/rules.ts';
import { StatusCode } from '../../contract/statusCodes.ts';
import {
  draftFrom,
  fieldText,
  isRecord,
  isStep,
  registrationSteps,
  stepCount,
  type RegistrationDraft,
  type RegistrationStep,
} from './registrationDraft.ts';
import { retryAtOf, untilRetry } from '../shared/serverWait.ts';

export { draftFrom, registrationSteps, stepCount, type RegistrationDraft, type RegistrationStep };

// ---------------------------------------------------------------------------------------------
// Data

/** The step the user must come back to after a reload: the unlock code is never kept (see draftOf). */
const lastRestorableStep: RegistrationStep = 4;

export type PersonalInfo = { firstName: string; middleName: string; lastName: string; dob: string; ssn: string; email: string };
export type UnlockCodeChoice = { unlockCode: string; unlockCodeConfirmation: string };
export type Agreements = Record<AgreementKind, boolean>;

/** Every field a registration form has, in the order of the steps (the "first failing field" order). */
export const registrationFields = [
  'firstName',
  'middleName',
  'lastName',
  'dob',
  'ssn',
  'email',
  'phone',
  'street1',
  'street2',
  'city',
  'state',
  'zip',
  'unlockCode',
  'unlockCodeConfirmation',
  ...agreementKinds,
] as const;
export type RegistrationField = (typeof registrationFields)[number];

export const stepOfField: Record<RegistrationField, RegistrationStep> = {
  firstName: 1,
  middleName: 1,
  lastName: 1,
  dob: 1,
  ssn: 1,
  email: 1,
  phone: 2,
  street1: 3,
  street2: 3,
  city: 3,
  state: 3,
  zip: 3,
  unlockCode: 4,
  unlockCodeConfirmation: 4,
  esign: 5,
  terms: 5,
  cardholder3: 5,
};

/**
 * Problems beside the rules.ts ValidationMessage keys. The first two are the card API's own
 * (contract/validation.ts ServerFieldError), the third the chart's; `address.<300-307>` is the
 * server's key for an address its own check refused at /register.
 */
export const RegistrationProblem = {
  /** The server no longer accepts the phone verification (mfaToken): verify the phone again. */
  phoneUnverified: 'phone.unverified',
  /** Not every agreement was accepted (server, for `legal` as a whole). */
  legalRequired: 'legal.required',
  /** This agreement was not accepted. */
  agreementRequired: 'agreement.required',
} as const;

/** A field's problem: a rules.ts ValidationMessage, a RegistrationProblem, or a key the server sent. */
export type FieldProblems = Partial<Record<RegistrationField, string>>;

/** Everything the user typed, normalised as each step is submitted (spec §5). */
export type RegistrationForm = Omit<PersonalInfo, never> &
  LegalAddress &
  UnlockCodeChoice & {
    phone: string;
    legal: Legal;
  };

export type RegistrationInput = {
  /** The saved draft, or null. */
  draft: RegistrationDraft | null;
  /** The route's step param (1 when absent); the chart starts there if it may. */
  requestedStep: number;
  /** The `profile` query (JSON text) as given, or null. */
  profile: string | null;
  /** The companion app's user uuid (null standalone). */
  providersUuid: string | null;
};

export type RegistrationContext = {
  /** The step shown. */
  step: RegistrationStep;
  /** The furthest step reached: every step before it is complete. */
  furthestStep: RegistrationStep;
  form: RegistrationForm;
  /** The phone that /verify-phone accepted, and the token that proves it. */
  verifiedPhone: string | null;
  mfaToken: string | null;
  profile: string | null;
  providersUuid: string | null;
  fieldErrors: FieldProblems;
  /** The last /verify-address answer that was not SUCCESS (300-307). */
  addressCode: number | null;
  optOutAllowed: boolean;
  /** Wrong texted code: tries left. */
  attemptsLeft: number | null;
  /** Too many codes: when a new code may be asked for (ms since the epoch, from the server's retryAfterSeconds). */
  retryAt: number | null;
  /** The SSN had to be entered again after the agreements: go straight back to them. */
  resumeAtAgreements: boolean;
};

/**
 * POST /register as the client classifies it by HTTP status (a 403 `{2}` is CIP_TAKEN, a 400 `{2}` is
 * not a result at all): 200 `{0}`, 403 `{1}`, 403 `{2}`, 400 `{4, fieldErrors}`. Anything else fails the actor.
 */
export type RegisterOutcome =
  | { statusCode: typeof StatusCode.SUCCESS; access: string; refresh: string; isInternal: boolean }
  | { statusCode: typeof StatusCode.FAILED_VALIDATION; fieldErrors: Record<string, string> }
  | { statusCode: Exclude<RegistrationResult, 0> };

export type RegistrationResultName = 'success' | 'denied' | 'taken';

export type RegistrationEvent =
  | ({ type: 'user.submitPersonalInfo' } & PersonalInfo)
  | { type: 'user.submitPhone'; phone: string }
  | { type: 'user.submitCode'; code: string }
  | { type: 'user.resendCode' }
  | { type: 'user.changePhone' }
  | ({ type: 'user.submitAddress' } & LegalAddress)
  | { type: 'user.optOut' }
  | { type: 'user.backToAddress' }
  | ({ type: 'user.submitUnlockCode' } & UnlockCodeChoice)
  | ({ type: 'user.submitAgreements' } & Agreements)
  | { type: 'user.goToStep'; step: number };

const noLegal: Legal = { esign: null, terms: null, cardholder3: null };
const emptyAddress: LegalAddress = { street1: '', street2: '', city: '', state: '', zip: '' };
export const emptyForm: RegistrationForm = {
  firstName: '',
  middleName: '',
  lastName: '',
  dob: '',
  ssn: '',
  email: '',
  phone: '',
  ...emptyAddress,
  unlockCode: '',
  unlockCodeConfirmation: '',
  legal: noLegal,
};

// ---------------------------------------------------------------------------------------------
// Normalisation (spec §5: on submit, names and email trimmed, phone digits only, dob mm/dd/yyyy)

/** `1/2/1990`, `01-02-1990`, `01021990` and `1990-01-02` all become `01/02/1990`; anything else is kept. */
export function normaliseDob(value: string): string {
  const text = value.trim();
  const pad = (part: string) => part.padStart(2, '0');
  const us = /^(\d{1,2})[/.\s-](\d{1,2})[/.\s-](\d{4})$/.exec(text);
  if (us) return `${pad(us[1]!)}/${pad(us[2]!)}/${us[3]}`;
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text);
  if (iso) return `${pad(iso[2]!)}/${pad(iso[3]!)}/${iso[1]}`;
  if (/^\d{8}$/.test(text)) return `${text.slice(0, 2)}/${text.slice(2, 4)}/${text.slice(4)}`;
  return text;
}

/** `12345`, `12345-` and `123456789` become `12345` or `12345-6789`; anything else is kept (trimmed). */
export function normaliseZip(value: string): string {
  const text = value.trim();
  if (!/^\d{5}(-?\d{4})?-?$/.test(text)) return text;
  const digits = digitsOf(text);
  return digits.length === 9 ? `${digits.slice(0, 5)}-${digits.slice(5)}` : digits;
}

function normalisePersonalInfo(info: PersonalInfo): PersonalInfo {
  return {
    firstName: info.firstName.trim(),
    middleName: info.middleName.trim(),
    lastName: info.lastName.trim(),
    dob: normaliseDob(info.dob),
    ssn: info.ssn,
    email: info.email.trim(),
  };
}

function normaliseAddress(address: LegalAddress): LegalAddress {
  return {
    street1: address.street1.trim(),
    street2: address.street2.trim(),
    city: address.city.trim(),
    state: address.state.trim().toUpperCase(),
    zip: normaliseZip(address.zip),
  };
}

/** POST /register's body from what was typed, normalised once more (spec §5). */
export function payloadOf(context: RegistrationContext): RegistrationPayload {
  const { form } = context;
  const info = normalisePersonalInfo(form);
  return {
    firstName: info.firstName,
    middleName: info.middleName,
    lastName: info.lastName,
    dob: info.dob,
    ssn: digitsOf(form.ssn),
    email: info.email,
    phone: digitsOf(context.verifiedPhone ?? form.phone),
    mfaToken: context.mfaToken ?? '',
    addressLegal: normaliseAddress(form),
    unlockCode: form.unlockCode,
    legal: form.legal,
    providersUuid: context.providersUuid,
    profile: context.profile,
  };
}

// ---------------------------------------------------------------------------------------------
// Profile pre-fill and the persisted draft

export const profileFields = ['firstName', 'middleName', 'lastName', 'email', 'phone', 'dob', 'street1', 'street2', 'city', 'state', 'zip'] as const;
export type ProfileField = (typeof profileFields)[number];
/** Longer `profile` texts are ignored (not read, not sent). */
export const maxProfileLength = 4000;

/** The fields a `profile` query names (spec §2). Anything else in it, and malformed JSON, is ignored; never the SSN. */
export function profileFieldsOf(profile: string | null): Partial<Record<ProfileField, string>> {
  if (!profile || profile.length > maxProfileLength) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(profile);
  } catch {
    return {};
  }
  if (!isRecord(parsed)) return {};
  const fields: Partial<Record<ProfileField, string>> = {};
  for (const field of profileFields) {
    const value = fieldText(parsed[field]);
    if (value === null || value === '') continue;
    if (field === 'state' && !(stateCodes as readonly string[]).includes(value.toUpperCase())) continue;
    fields[field] = field === 'state' ? value.toUpperCase() : field === 'dob' ? normaliseDob(value) : value;
  }
  return fields;
}

/** What of the context is saved: no SSN, no unlock code, no profile text (it may hold anything). */
export function draftOf(context: RegistrationContext): RegistrationDraft {
  const { form } = context;
  return {
    furthestStep: context.furthestStep,
    firstName: form.firstName,
    middleName: form.middleName,
    lastName: form.lastName,
    dob: form.dob,
    email: form.email,
    phone: form.phone,
    verifiedPhone: context.verifiedPhone,
    mfaToken: context.mfaToken,
    street1: form.street1,
    street2: form.street2,
    city: form.city,
    state: form.state,
    zip: form.zip,
    legal: form.legal,
  };
}

/** The chart's starting context: the draft, then the profile for fields the draft leaves empty. */
export function initialContextOf(input: RegistrationInput): RegistrationContext {
  const draft = draftFrom(input.draft);
  const profile = input.profile !== null && input.profile.length <= maxProfileLength ? input.profile : null;
  const prefill = profileFieldsOf(profile);
  const form: RegistrationForm = { ...emptyForm };
  for (const field of profileFields) {
    form[field] = (draft?.[field] || prefill[field]) ?? '';
  }
  form.legal = draft?.legal ?? noLegal;
  const furthestStep = Math.min(draft?.furthestStep ?? 1, lastRestorableStep) as RegistrationStep;
  const requested = isStep(input.requestedStep) ? input.requestedStep : 1;
  return {
    step: Math.min(requested, furthestStep) as RegistrationStep,
    furthestStep,
    form,
    verifiedPhone: draft?.verifiedPhone ?? null,
    mfaToken: draft?.mfaToken ?? null,
    profile,
    providersUuid: input.providersUuid,
    fieldErrors: {},
    addressCode: null,
    optOutAllowed: false,
    attemptsLeft: null,
    retryAt: null,
    resumeAtAgreements: false,
  };
}

// ---------------------------------------------------------------------------------------------
// Checks

function personalInfoOf(event: RegistrationEvent): PersonalInfo {
  if (event.type !== 'user.submitPersonalInfo') return { firstName: '', middleName: '', lastName: '', dob: '', ssn: '', email: '' };
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return normalisePersonalInfo({
    firstName: text(event.firstName),
    middleName: text(event.middleName),
    lastName: text(event.lastName),
    dob: text(event.dob),
    ssn: text(event.ssn),
    email: text(event.email),
  });
}

const personalInfoProblems = (event: RegistrationEvent): FieldProblems => fieldErrors(personalInfoChecks, personalInfoOf(event));

function addressOf(event: RegistrationEvent): LegalAddress {
  if (event.type !== 'user.submitAddress') return emptyAddress;
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return normaliseAddress({
    street1: text(event.street1),
    street2: text(event.street2),
    city: text(event.city),
    state: text(event.state),
    zip: text(event.zip),
  });
}

const addressProblems = (event: RegistrationEvent): FieldProblems => fieldErrors(addressChecks, addressOf(event));

const phoneOf = (event: RegistrationEvent) => (event.type === 'user.submitPhone' && typeof event.phone === 'string' ? event.phone.trim() : '');

function unlockCodeProblems(event: RegistrationEvent): FieldProblems {
  if (event.type !== 'user.submitUnlockCode') return { unlockCode: checkNewUnlockCode('') ?? undefined };
  const problems: FieldProblems = {};
  const code = checkNewUnlockCode(event.unlockCode);
  if (code) problems.unlockCode = code;
  else {
    const confirmation = checkUnlockCodeConfirmation(event.unlockCode, event.unlockCodeConfirmation);
    if (confirmation) problems.unlockCodeConfirmation = confirmation;
  }
  return problems;
}

function legalOf(event: RegistrationEvent): Legal {
  const accepted = (kind: AgreementKind) => (event.type === 'user.submitAgreements' && event[kind] === true ? agreed : null);
  return { esign: accepted('esign'), terms: accepted('terms'), cardholder3: accepted('cardholder3') };
}

function agreementProblems(event: RegistrationEvent): FieldProblems {
  const legal = legalOf(event);
  return Object.fromEntries(agreementKinds.filter((kind) => legal[kind] !== agreed).map((kind) => [kind, RegistrationProblem.agreementRequired]));
}

const isEmpty = (problems: FieldProblems) => Object.keys(problems).length === 0;

/**
 * A server field as the form field that shows its problem: `firstName`, `addressLegal.zip`,
 * `legal.esign` as themselves; the whole address (`addressLegal`, e.g. `address.304`) on the street
 * address; the agreements as a whole (`legal`) on the first one; the `mfaToken` on the phone.
 */
function formFieldOf(serverField: string): RegistrationField | null {
  if (serverField === 'mfaToken') return 'phone';
  if (serverField === 'addressLegal') return 'street1';
  if (serverField === 'legal') return 'esign';
  const leaf = serverField.replace(/^(addressLegal|legal)\./, '');
  return (registrationFields as readonly string[]).includes(leaf) ? (leaf as RegistrationField) : null;
}

/** The server's 400 `fieldErrors` on the form's fields; the mfaToken's problem shows on the phone. */
export function serverFieldProblems(serverErrors: Record<string, string> | undefined): FieldProblems {
  const problems: FieldProblems = {};
  for (const [serverField, message] of Object.entries(serverErrors ?? {})) {
    const field = formFieldOf(serverField);
    if (!field || typeof message !== 'string') continue;
    problems[field] = serverField === 'mfaToken' ? RegistrationProblem.phoneUnverified : message;
  }
  return problems;
}

/** The step owning the first failing field, or null when no field the form knows failed. */
export function firstFailingStep(problems: FieldProblems): RegistrationStep | null {
  const first = registrationFields.find((field) => problems[field] !== undefined);
  return first ? stepOfField[first] : null;
}

const addressCodes: readonly number[] = [
  StatusCode.ADDRESS_INVALID,
  StatusCode.ADDRESS_UNIT_INCORRECT,
  StatusCode.ADDRESS_UNIT_REQUIRED,
  StatusCode.ADDRESS_COMMERCIAL,
  StatusCode.ADDRESS_PO_BOX,
  StatusCode.ADDRESS_VACANT,
  StatusCode.ADDRESS_GENERAL_DELIVERY,
  StatusCode.ADDRESS_MAIL_DROP,
];
/** 303-307 may offer "If you don’t have a legal address, tap here." (spec §8). */
export const optOutCodes: readonly number[] = addressCodes.slice(3);

/** The saveDraft action with the draft of the context as it is now (after the assigns before it). */
const saveDraftNow = { type: 'saveDraft', params: ({ context }: { context: RegistrationContext }) => draftOf(context) } as const;

const completed = (context: RegistrationContext, step: RegistrationStep): RegistrationStep =>
  Math.max(context.furthestStep, Math.min(step + 1, stepCount)) as RegistrationStep;

// ---------------------------------------------------------------------------------------------
// The chart

export const registrationMachine = setup({
  types: {
    context: {} as RegistrationContext,
    events: {} as RegistrationEvent,
    input: {} as RegistrationInput,
  },
  delays: {
    /** The server's deadline for a new code (retryAfterSeconds), checked again when it passes. */
    untilRetry,
  },
  guards: {
    startsAt: ({ context }, params: { step: RegistrationStep }) => context.step === params.step,
    canGoToStep: ({ context, event }, params: { step: RegistrationStep }) =>
      event.type === 'user.goToStep' &&
      event.step === params.step &&
      params.step !== context.step &&
      params.step <= context.furthestStep,
    isPersonalInfoValid: ({ event }) => isEmpty(personalInfoProblems(event)),
    isEmailTaken: (_, answer: VerifyEmailAnswer | undefined) => answer?.statusCode === StatusCode.SUCCESS,
    isEmailFreeResuming: ({ context }, answer: VerifyEmailAnswer | undefined) =>
      answer?.statusCode === StatusCode.NOT_ALLOWED && context.resumeAtAgreements,
    isEmailFree: (_, answer: VerifyEmailAnswer | undefined) => answer?.statusCode === StatusCode.NOT_ALLOWED,
    isPhoneAlreadyVerified: ({ context, event }) =>
      checkPhone(phoneOf(event)) === null &&
      context.mfaToken !== null &&
      context.verifiedPhone === digitsOf(phoneOf(event)),
    isPhoneValid: ({ event }) => checkPhone(phoneOf(event)) === null,
    isPhoneInUse: (_, answer: PhoneInUseAnswer | undefined) => answer?.statusCode === StatusCode.SUCCESS && answer.inUse === true,
    isPhoneFree: (_, answer: PhoneInUseAnswer | undefined) => answer?.statusCode === StatusCode.SUCCESS && answer.inUse === false,
    isCodeSent: (_, answer: RequestVerificationAnswer | undefined) => answer?.statusCode === StatusCode.SUCCESS,
    isTooManyCodes: (_, answer: { statusCode?: number } | undefined) => answer?.statusCode === StatusCode.INVALID_MFA_LIMIT,
    isCannotText: (_, answer: RequestVerificationAnswer | undefined) =>
      answer?.statusCode === StatusCode.INVALID_PHONE_NUMBER || answer?.statusCode === StatusCode.MFA_ERROR,
    isLandline: (_, answer: RequestVerificationAnswer | undefined) => answer?.statusCode === StatusCode.INVALID_PHONE_LANDLINE,
    isCodeWellFormed: ({ event }) => event.type === 'user.submitCode' && typeof event.code === 'string' && /^\d{6}$/.test(event.code),
    isPhoneVerified: (_, answer: VerifyPhoneAnswer | undefined) => answer?.statusCode === StatusCode.SUCCESS && Boolean(answer.mfaToken),
    isWrongCode: (_, answer: VerifyPhoneAnswer | undefined) => answer?.statusCode === StatusCode.INVALID_MFA_CODE,
    isAddressValid: ({ event }) => isEmpty(addressProblems(event)),
    isAddressVerified: (_, answer: VerifyAddressAnswer | undefined) => answer?.statusCode === StatusCode.SUCCESS,
    isAddressRejected: (_, answer: VerifyAddressAnswer | undefined) => answer !== undefined && addressCodes.includes(answer.statusCode),
    canOptOut: ({ context }) => context.optOutAllowed && context.addressCode !== null && optOutCodes.includes(context.addressCode),
    isUnlockCodeValid: ({ event }) => isEmpty(unlockCodeProblems(event)),
    isReadyToRegister: ({ context, event }) => isEmpty(agreementProblems(event)) && digitsOf(context.form.ssn).length === 9,
    areAgreementsAccepted: ({ event }) => isEmpty(agreementProblems(event)),
    isRegistered: (_, outcome: RegisterOutcome | undefined) =>
      outcome?.statusCode === StatusCode.SUCCESS && Boolean(outcome.access && outcome.refresh),
    isDenied: (_, outcome: RegisterOutcome | undefined) => outcome?.statusCode === 1,
    isTaken: (_, outcome: RegisterOutcome | undefined) => outcome?.statusCode === 2,
    isRejectedAt: (_, params: { outcome: RegisterOutcome | undefined; step: RegistrationStep }) =>
      params.outcome?.statusCode === StatusCode.FAILED_VALIDATION &&
      firstFailingStep(serverFieldProblems(params.outcome.fieldErrors)) === params.step,
  },
  actions: {
    noteStep: assign((_, params: { step: RegistrationStep }) => ({ step: params.step })),
    completeStep: assign(({ context }, params: { step: RegistrationStep }) => ({ furthestStep: completed(context, params.step) })),
    clearProblems: assign({ fieldErrors: {}, attemptsLeft: null }),
    storePersonalInfo: assign(({ context, event }) => {
      const info = personalInfoOf(event);
      return { form: { ...context.form, ...info }, fieldErrors: personalInfoProblems(event) };
    }),
    storePhone: assign(({ context, event }) => {
      const phone = phoneOf(event);
      const changed = context.verifiedPhone !== digitsOf(phone);
      const problem = checkPhone(phone);
      return {
        form: { ...context.form, phone },
        fieldErrors: problem ? { phone: problem } : {},
        // A new number must be verified again before the steps after it.
        ...(changed ? { verifiedPhone: null, mfaToken: null, furthestStep: Math.min(context.furthestStep, 2) as RegistrationStep } : {}),
      };
    }),
    forgetPhoneVerification: assign(({ context }) => ({
      verifiedPhone: null,
      mfaToken: null,
      furthestStep: Math.min(context.furthestStep, 2) as RegistrationStep,
    })),
    storeMfaToken: assign(({ context }, answer: VerifyPhoneAnswer | undefined) => ({
      mfaToken: answer?.mfaToken ?? null,
      verifiedPhone: digitsOf(context.form.phone),
      attemptsLeft: null,
    })),
    countAttempts: assign((_, answer: VerifyPhoneAnswer | undefined) => ({ attemptsLeft: answer?.attemptsLeft ?? null })),
    storeRetryAt: assign((_, answer: { retryAfterSeconds?: number } | undefined) => ({
      retryAt: retryAtOf(answer),
    })),
    clearRetryAt: assign({ retryAt: null }),
    storeAddress: assign(({ context, event }) => ({
      form: { ...context.form, ...addressOf(event) },
      fieldErrors: addressProblems(event),
      addressCode: null,
      optOutAllowed: false,
    })),
    storeAddressCode: assign((_, answer: VerifyAddressAnswer | undefined) => ({
      addressCode: answer?.statusCode ?? null,
      optOutAllowed: answer?.optOutAllowed === true,
    })),
    storeUnlockCode: assign(({ context, event }) => ({
      form:
        event.type === 'user.submitUnlockCode'
          ? { ...context.form, unlockCode: event.unlockCode, unlockCodeConfirmation: event.unlockCodeConfirmation }
          : context.form,
      fieldErrors: unlockCodeProblems(event),
    })),
    storeLegal: assign(({ context, event }) => ({ form: { ...context.form, legal: legalOf(event) }, fieldErrors: agreementProblems(event) })),
    askForSsnAgain: assign(({ context }) => ({
      form: { ...context.form, ssn: '' },
      fieldErrors: {},
      resumeAtAgreements: true,
    })),
    clearResume: assign({ resumeAtAgreements: false }),
    showServerProblems: assign((_, outcome: RegisterOutcome | undefined) => ({
      fieldErrors: serverFieldProblems(outcome?.statusCode === StatusCode.FAILED_VALIDATION ? outcome.fieldErrors : undefined),
    })),
    clearForm: assign({ form: emptyForm, verifiedPhone: null, mfaToken: null, fieldErrors: {}, furthestStep: 1 as RegistrationStep }),
    /** Supplied by the app: keep the draft in core state (null clears it). */
    saveDraft: (_, _draft: RegistrationDraft | null) => {},
    /** Supplied by the app: store the new session's tokens, as sign-in does. */
    storeSession: (_, _outcome: RegisterOutcome | undefined) => {},
    /** Supplied by the app: the session's refresh token becomes the failed-registration marker. */
    markRegistrationFailed: () => {},
    /** Supplied by the app: analytics event `registration.result` (no personal data). */
    logResult: (_, _result: RegistrationResultName) => {},
    /** Supplied by the app: go to home, which shows the new virtual card. */
    continueToHome: () => {},
  },
  actors: {
    verifyEmail: fromPromise<VerifyEmailAnswer, { email: string }>(async () => ({ statusCode: StatusCode.UNEXPECTED_ERROR })),
    phoneNumberInUse: fromPromise<PhoneInUseAnswer, { phone: string }>(async () => ({
      statusCode: StatusCode.UNEXPECTED_ERROR,
      inUse: false,
    })),
    requestVerification: fromPromise<RequestVerificationAnswer, { phone: string }>(async () => ({
      statusCode: StatusCode.UNEXPECTED_ERROR,
    })),
    verifyPhone: fromPromise<VerifyPhoneAnswer, { phone: string; code: string }>(async () => ({
      statusCode: StatusCode.UNEXPECTED_ERROR,
    })),
    verifyAddress: fromPromise<VerifyAddressAnswer, LegalAddress>(async () => ({ statusCode: StatusCode.UNEXPECTED_ERROR })),
    register: fromPromise<RegisterOutcome, RegistrationPayload>(async () => {
      throw new Error('register is supplied by the app');
    }),
  },
}).createMachine({
  id: 'registration',
  context: ({ input }) => initialContextOf(input),
  initial: 'restoring',
  states: {
    /** Start at the route's step, or the furthest step the draft reached if that is earlier. */
    restoring: {
      always: [
        { guard: { type: 'startsAt', params: { step: 4 } }, target: '#registration.inputting.unlockCode' },
        { guard: { type: 'startsAt', params: { step: 3 } }, target: '#registration.inputting.address' },
        { guard: { type: 'startsAt', params: { step: 2 } }, target: '#registration.inputting.phone' },
        { target: '#registration.inputting.personalInfo' },
      ],
    },
    /** INPUTTING (spec §4). */
    inputting: {
      initial: 'personalInfo',
      on: {
        'user.goToStep': [
          { guard: { type: 'canGoToStep', params: { step: 1 } }, target: '.personalInfo' },
          { guard: { type: 'canGoToStep', params: { step: 2 } }, target: '.phone' },
          { guard: { type: 'canGoToStep', params: { step: 3 } }, target: '.address' },
          { guard: { type: 'canGoToStep', params: { step: 4 } }, target: '.unlockCode' },
          { guard: { type: 'canGoToStep', params: { step: 5 } }, target: '.agreements' },
        ],
      },
      states: {
        /** Step 1: legal name, date of birth, SSN, email; then POST /verify/email. */
        personalInfo: {
          entry: { type: 'noteStep', params: { step: 1 } },
          initial: 'editing',
          states: {
            editing: {
              initial: 'idle',
              on: {
                'user.submitPersonalInfo': [
                  { guard: 'isPersonalInfoValid', target: 'checkingEmail', actions: ['storePersonalInfo', saveDraftNow] },
                  { target: '.invalid', actions: ['storePersonalInfo', saveDraftNow] },
                ],
              },
              states: {
                idle: {},
                invalid: {},
                /** Back from the agreements after a reload: the SSN is never kept. */
                ssnNeeded: {},
                /** /verify/email SUCCESS: a Providers account already uses this email. */
                emailTaken: {},
                /** 429 {201}: too many account lookups from this device or network; says how long to wait. */
                tooManyLookups: {},
                failed: {},
              },
            },
            checkingEmail: {
              invoke: {
                id: 'verifyEmail',
                src: 'verifyEmail',
                input: ({ context }) => ({ email: context.form.email }),
                onDone: [
                  { guard: { type: 'isEmailTaken', params: ({ event }) => event.output }, target: 'editing.emailTaken' },
                  {
                    guard: { type: 'isEmailFreeResuming', params: ({ event }) => event.output },
                    target: '#registration.inputting.agreements',
                    actions: [{ type: 'completeStep', params: { step: 1 } }, 'clearResume', saveDraftNow],
                  },
                  {
                    guard: { type: 'isEmailFree', params: ({ event }) => event.output },
                    target: '#registration.inputting.phone',
                    actions: [{ type: 'completeStep', params: { step: 1 } }, saveDraftNow],
                  },
                  {
                    guard: { type: 'isTooManyCodes', params: ({ event }) => event.output },
                    target: 'editing.tooManyLookups',
                    actions: { type: 'storeRetryAt', params: ({ event }) => event.output },
                  },
                  { target: 'editing.failed' },
                ],
                onError: { target: 'editing.failed' },
              },
            },
          },
        },
        /** Step 2: the mobile phone, verified with a texted 6-digit code. */
        phone: {
          entry: { type: 'noteStep', params: { step: 2 } },
          initial: 'editing',
          states: {
            editing: {
              initial: 'idle',
              on: {
                'user.submitPhone': [
                  {
                    guard: 'isPhoneAlreadyVerified',
                    target: '#registration.inputting.address',
                    actions: ['storePhone', { type: 'completeStep', params: { step: 2 } }, saveDraftNow],
                  },
                  { guard: 'isPhoneValid', target: 'checkingInUse', actions: ['storePhone', saveDraftNow] },
                  { target: '.invalid', actions: ['storePhone', saveDraftNow] },
                ],
              },
              states: {
                idle: {},
                invalid: {},
                /** Another account uses this number. */
                inUse: {},
                /** 202 INVALID_PHONE_NUMBER or 203 MFA_ERROR: no text could be sent. */
                cannotText: {},
                /** 204 INVALID_PHONE_LANDLINE. */
                landline: {},
                /** 429 {201} from the in-use check: too many account lookups; says how long to wait. */
                tooManyLookups: {},
                failed: {},
              },
            },
            checkingInUse: {
              invoke: {
                id: 'phoneNumberInUse',
                src: 'phoneNumberInUse',
                input: ({ context }) => ({ phone: digitsOf(context.form.phone) }),
                onDone: [
                  { guard: { type: 'isPhoneInUse', params: ({ event }) => event.output }, target: 'editing.inUse' },
                  { guard: { type: 'isPhoneFree', params: ({ event }) => event.output }, target: 'requestingCode' },
                  {
                    guard: { type: 'isTooManyCodes', params: ({ event }) => event.output },
                    target: 'editing.tooManyLookups',
                    actions: { type: 'storeRetryAt', params: ({ event }) => event.output },
                  },
                  { target: 'editing.failed' },
                ],
                onError: { target: 'editing.failed' },
              },
            },
            requestingCode: {
              invoke: {
                id: 'requestVerification',
                src: 'requestVerification',
                input: ({ context }) => ({ phone: digitsOf(context.form.phone) }),
                onDone: [
                  { guard: { type: 'isCodeSent', params: ({ event }) => event.output }, target: 'enteringCode', actions: 'clearProblems' },
                  {
                    guard: { type: 'isTooManyCodes', params: ({ event }) => event.output },
                    target: 'waiting',
                    actions: { type: 'storeRetryAt', params: ({ event }) => event.output },
                  },
                  { guard: { type: 'isCannotText', params: ({ event }) => event.output }, target: 'editing.cannotText' },
                  { guard: { type: 'isLandline', params: ({ event }) => event.output }, target: 'editing.landline' },
                  { target: 'editing.failed' },
                ],
                onError: { target: 'editing.failed' },
              },
            },
            enteringCode: {
              initial: 'idle',
              on: {
                'user.submitCode': [{ guard: 'isCodeWellFormed', target: 'verifyingCode' }, { target: '.invalid' }],
                'user.resendCode': { target: 'requestingCode' },
                'user.changePhone': { target: 'editing' },
              },
              states: {
                idle: {},
                invalid: {},
                /** 200 INVALID_MFA_CODE, with the tries left. */
                wrongCode: {},
                failed: {},
              },
            },
            verifyingCode: {
              invoke: {
                id: 'verifyPhone',
                src: 'verifyPhone',
                input: ({ context, event }) => ({
                  phone: digitsOf(context.form.phone),
                  code: event.type === 'user.submitCode' ? event.code : '',
                }),
                onDone: [
                  {
                    guard: { type: 'isPhoneVerified', params: ({ event }) => event.output },
                    target: '#registration.inputting.address',
                    actions: [
                      { type: 'storeMfaToken', params: ({ event }) => event.output },
                      { type: 'completeStep', params: { step: 2 } },
                      saveDraftNow,
                    ],
                  },
                  {
                    guard: { type: 'isWrongCode', params: ({ event }) => event.output },
                    target: 'enteringCode.wrongCode',
                    actions: { type: 'countAttempts', params: ({ event }) => event.output },
                  },
                  {
                    guard: { type: 'isTooManyCodes', params: ({ event }) => event.output },
                    target: 'waiting',
                    actions: { type: 'storeRetryAt', params: ({ event }) => event.output },
                  },
                  { target: 'enteringCode.failed' },
                ],
                onError: { target: 'enteringCode.failed' },
              },
            },
            /** Too many codes (201): the server's wait (10 minutes), then a new code may be asked for. */
            waiting: {
              after: { untilRetry: { target: 'editing', actions: 'clearRetryAt' } },
            },
          },
        },
        /** Step 3: the legal (residential) address, checked by POST /verify-address. */
        address: {
          entry: { type: 'noteStep', params: { step: 3 } },
          initial: 'editing',
          states: {
            editing: {
              initial: 'idle',
              on: {
                'user.submitAddress': [
                  { guard: 'isAddressValid', target: 'verifying', actions: ['storeAddress', saveDraftNow] },
                  { target: '.invalid', actions: ['storeAddress', saveDraftNow] },
                ],
                'user.optOut': { guard: 'canOptOut', target: 'noLegalAddress' },
              },
              states: {
                idle: {},
                invalid: {},
                /** 300-307: `addressCode` says which; 301 and 302 are about the unit. */
                rejected: {},
                failed: {},
              },
            },
            verifying: {
              invoke: {
                id: 'verifyAddress',
                src: 'verifyAddress',
                input: ({ context }) => normaliseAddress(context.form),
                onDone: [
                  {
                    guard: { type: 'isAddressVerified', params: ({ event }) => event.output },
                    target: '#registration.inputting.unlockCode',
                    actions: [{ type: 'completeStep', params: { step: 3 } }, saveDraftNow],
                  },
                  {
                    guard: { type: 'isAddressRejected', params: ({ event }) => event.output },
                    target: 'editing.rejected',
                    actions: { type: 'storeAddressCode', params: ({ event }) => event.output },
                  },
                  { target: 'editing.failed' },
                ],
                onError: { target: 'editing.failed' },
              },
            },
            /** "If you don’t have a legal address": an account can only be opened online with one. */
            noLegalAddress: {
              on: { 'user.backToAddress': { target: 'editing.rejected' } },
            },
          },
        },
        /** Step 4: a 4-digit unlock code, not an obvious one, typed twice. */
        unlockCode: {
          entry: { type: 'noteStep', params: { step: 4 } },
          initial: 'idle',
          on: {
            'user.submitUnlockCode': [
              {
                guard: 'isUnlockCodeValid',
                target: '#registration.inputting.agreements',
                actions: ['storeUnlockCode', { type: 'completeStep', params: { step: 4 } }, saveDraftNow],
              },
              { target: '.invalid', actions: 'storeUnlockCode' },
            ],
          },
          states: {
            idle: {},
            invalid: {},
          },
        },
        /** Step 5: E-Sign, Terms of use and the Cardholder Agreement, then POST /register. */
        agreements: {
          entry: { type: 'noteStep', params: { step: 5 } },
          initial: 'idle',
          on: {
            'user.submitAgreements': [
              { guard: 'isReadyToRegister', target: '#registration.processing', actions: ['storeLegal', saveDraftNow] },
              {
                guard: 'areAgreementsAccepted',
                target: '#registration.inputting.personalInfo.editing.ssnNeeded',
                actions: ['storeLegal', 'askForSsnAgain', saveDraftNow],
              },
              { target: '.invalid', actions: ['storeLegal', saveDraftNow] },
            ],
          },
          states: {
            idle: {},
            invalid: {},
            /** No answer from /register (network, timeout) or an unexpected one: nothing is lost. */
            failed: {},
          },
        },
      },
    },
    /** PROCESSING (spec §4). */
    processing: {
      invoke: {
        id: 'register',
        src: 'register',
        input: ({ context }) => payloadOf(context),
        onDone: [
          {
            guard: { type: 'isRegistered', params: ({ event }) => event.output },
            target: 'success',
            actions: [
              { type: 'storeSession', params: ({ event }) => event.output },
              'clearForm',
              { type: 'saveDraft', params: null },
              { type: 'logResult', params: 'success' },
              'continueToHome',
            ],
          },
          {
            guard: { type: 'isDenied', params: ({ event }) => event.output },
            target: 'failure.denied',
            actions: ['clearForm', { type: 'saveDraft', params: null }, { type: 'logResult', params: 'denied' }, 'markRegistrationFailed'],
          },
          {
            guard: { type: 'isTaken', params: ({ event }) => event.output },
            target: 'failure.taken',
            actions: ['clearForm', { type: 'saveDraft', params: null }, { type: 'logResult', params: 'taken' }, 'markRegistrationFailed'],
          },
          {
            guard: { type: 'isRejectedAt', params: ({ event }) => ({ outcome: event.output, step: 1 }) },
            target: '#registration.inputting.personalInfo.editing.invalid',
            actions: { type: 'showServerProblems', params: ({ event }) => event.output },
          },
          {
            guard: { type: 'isRejectedAt', params: ({ event }) => ({ outcome: event.output, step: 2 }) },
            target: '#registration.inputting.phone.editing.invalid',
            actions: [{ type: 'showServerProblems', params: ({ event }) => event.output }, 'forgetPhoneVerification', saveDraftNow],
          },
          {
            guard: { type: 'isRejectedAt', params: ({ event }) => ({ outcome: event.output, step: 3 }) },
            target: '#registration.inputting.address.editing.invalid',
            actions: { type: 'showServerProblems', params: ({ event }) => event.output },
          },
          {
            guard: { type: 'isRejectedAt', params: ({ event }) => ({ outcome: event.output, step: 4 }) },
            target: '#registration.inputting.unlockCode.invalid',
            actions: { type: 'showServerProblems', params: ({ event }) => event.output },
          },
          {
            guard: { type: 'isRejectedAt', params: ({ event }) => ({ outcome: event.output, step: 5 }) },
            target: '#registration.inputting.agreements.invalid',
            actions: { type: 'showServerProblems', params: ({ event }) => event.output },
          },
          { target: '#registration.inputting.agreements.failed' },
        ],
        onError: { target: '#registration.inputting.agreements.failed' },
      },
    },
    /** SUCCESS: the session holds the new tokens; the app shows home with the new virtual card. */
    success: { type: 'final' },
    /** FAILURE: the form is cleared and the session carries the failed-registration marker. */
    failure: {
      initial: 'denied',
      states: {
        /** 403 `{1}` APPLICATION_DENIED. */
        denied: { type: 'final' },
        /** 403 `{2}` CIP_TAKEN: an account already exists for this person. */
        taken: { type: 'final' },
      },
    },
  },
});

export type RegistrationSnapshot = SnapshotFrom<typeof registrationMachine>;

/** Which step a chart state shows (processing stays on the agreements), null when no step is shown. */
export function stepOfState(snapshot: RegistrationSnapshot): RegistrationStep | null {
  if (snapshot.matches('inputting')) return snapshot.context.step;
  if (snapshot.matches('processing')) return 5;
  return null;
}
