/**
 * Registration (spec §2 /register/:step?, §3 registration payload, §4 registration status, §5 rules,
 * §7 calls, §8 codes; docs/charts.md): INPUTTING (five steps) → PROCESSING → SUCCESS | FAILURE.
 *
 * Steps, in order: 1 personal info (then POST /verify/email), 2 phone (POST /phone-number-in-use,
 * /request-verification, /verify-phone), 3 legal address (POST /verify-address), 4 unlock code,
 * 5 agreements, then POST /register. The route's step param is fed back as `user.goToStep`: the chart
 * moves back to any earlier step, or forward to a step it has already reached; the view follows it.
 *
 * How each failure ends: a step's check refuses → the step again, `invalid`, with `fieldErrors`;
 * no answer or an unexpected one from a step's call → the step again, `failed`, nothing lost; too
 * many lookups or codes (201) → the step's wait (`retryAt`), /register's 429 `{201}` (too many
 * lookups, a taken identity counting as one) → the agreements' wait; /register's 400 → the step of the first
 * failing field; 403 `{1}` → FAILURE denied, 403 `{2}` → FAILURE taken (the form is cleared and the
 * session carries the failed-registration marker); no answer from /register → the agreements, `failed`.
 *
 * The fields, their normalisers, checks, and what the draft keeps are the table in
 * registrationFields.ts. The calls are `fromPromise` actors named after them; storing the session,
 * saving the draft, analytics and navigation are named actions, supplied by the app with `.provide()`.
 * Context holds the typed fields and codes (validation keys, statusCodes), never translated text.
 * Views ask the chart through its tags (`busy`, `invalid`, `failed`, `waiting`) and the selectors
 * at the end of this file.
 */
import { assign, fromPromise, raise, type SnapshotFrom } from 'xstate';
import { setup } from '../shared/setup.ts';
import {
  agreed,
  agreementKinds,
  type AgreementKind,
  type Legal,
  type PhoneInUseAnswer,
  type RegisterAnswer,
  type RegistrationPayload,
  type RequestVerificationAnswer,
  type VerifyAddressAnswer,
  type VerifyEmailAnswer,
  type VerifyPhoneAnswer,
} from '../../contract/identity/types.ts';
import type { Address } from '../../contract/shared/address.ts';
import { digitsOf, phoneDigits } from '../../contract/rules.ts';
import { checkPhone } from '../../contract/identity/rules.ts';
import { StatusCode } from '../../contract/shared/statusCodes.ts';
import { untilRetry } from '../shared/serverWait.ts';
import {
  submittedCode,
  textedCodeAnswers,
  textedCodeAssigners,
  textedCodeGuards,
  textedCodeStates,
  type TextedCodeTag,
} from '../shared/textedCode.ts';
import { newUnlockCodeErrors } from '../shared/newUnlockCode.ts';
import { draftFrom, draftOf, isStep, type RegistrationDraft } from './registrationDraft.ts';
import { emptyForm, fieldsOfStep, maxProfileLength, noLegal, profileFields, stepCount, type RegistrationForm, type RegistrationStep } from './registrationFields.ts';
import { firstFailingStep, RegistrationProblem, serverFieldProblems, type FieldProblems } from './registrationProblems.ts';
import { addressOfForm, fieldProblems, normalisedFields, payloadOf, profileFieldsOf } from './registrationFieldRules.ts';

// ---------------------------------------------------------------------------------------------
// Data

/**
 * The furthest a reload comes back to: the phone step, with the number typed. The mfaToken that
 * proved the phone is never saved (it would prove the phone to whoever read the saved state, for 30
 * minutes: see draftOf), so the phone is verified again; the steps after it keep what was typed.
 */
const lastRestorableStep: RegistrationStep = 2;

const personalInfoFields = fieldsOfStep(1) as (keyof PersonalInfo)[];
const addressFields = fieldsOfStep(3) as (keyof Address)[];

export type PersonalInfo = { firstName: string; middleName: string; lastName: string; dob: string; ssn: string; email: string };
export type UnlockCodeChoice = { unlockCode: string; unlockCodeConfirmation: string };
export type Agreements = Record<AgreementKind, boolean>;

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
  /** The phone that /verify-phone accepted, and the token that proves it: in memory only, never in the draft. */
  verifiedPhone: string | null;
  mfaToken: string | null;
  /** The phone (10 digits) a code was last texted to and not yet verified: a reload resumes at the code. */
  codeSentTo: string | null;
  /** A reload came back from a step after the phone's: the phone is verified again (its proof is never saved), and the screen says why. */
  verifyPhoneAgain: boolean;
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

export type RegistrationResultName = 'success' | 'denied' | 'taken';

export type RegistrationEvent =
  | ({ type: 'user.submitPersonalInfo' } & PersonalInfo)
  | { type: 'user.submitPhone'; phone: string }
  | { type: 'user.submitCode'; code: string }
  | { type: 'user.resendCode' }
  | { type: 'user.changePhone' }
  | ({ type: 'user.submitAddress' } & Address)
  | { type: 'user.optOut' }
  | { type: 'user.backToAddress' }
  | ({ type: 'user.submitUnlockCode' } & UnlockCodeChoice)
  | ({ type: 'user.submitAgreements' } & Agreements)
  | { type: 'user.goToStep'; step: number };

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
    verifiedPhone: null,
    mfaToken: null,
    codeSentTo: draft?.codeSentTo ?? null,
    verifyPhoneAgain: (draft?.furthestStep ?? 1) > lastRestorableStep,
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
// Checks: each step's event, normalised and checked by the field table

const personalInfoOf = (event: RegistrationEvent): PersonalInfo =>
  normalisedFields(personalInfoFields, event.type === 'user.submitPersonalInfo' ? event : {});

const personalInfoProblems = (event: RegistrationEvent): FieldProblems => fieldProblems(personalInfoFields, personalInfoOf(event));

const addressOf = (event: RegistrationEvent): Address => addressOfForm(event.type === 'user.submitAddress' ? event : {});

const addressProblems = (event: RegistrationEvent): FieldProblems => fieldProblems(addressFields, addressOf(event));

const phoneOf = (event: RegistrationEvent) => normalisedFields(['phone'], event.type === 'user.submitPhone' ? event : {}).phone;

const unlockCodeProblems = (event: RegistrationEvent): FieldProblems =>
  newUnlockCodeErrors(event.type === 'user.submitUnlockCode' ? event : { unlockCode: '', unlockCodeConfirmation: '' });

function legalOf(event: RegistrationEvent): Legal {
  const accepted = (kind: AgreementKind) => (event.type === 'user.submitAgreements' && event[kind] === true ? agreed : null);
  return { esign: accepted('esign'), terms: accepted('terms'), cardholder3: accepted('cardholder3') };
}

function agreementProblems(event: RegistrationEvent): FieldProblems {
  const legal = legalOf(event);
  return Object.fromEntries(agreementKinds.filter((kind) => legal[kind] !== agreed).map((kind) => [kind, RegistrationProblem.agreementRequired]));
}

const isEmpty = (problems: FieldProblems) => Object.keys(problems).length === 0;

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
const optOutCodes: readonly number[] = addressCodes.slice(3);

/** The last /verify-address answer offered the way out for someone without a legal address. */
const optOutOffered = ({ optOutAllowed, addressCode }: RegistrationContext) =>
  optOutAllowed && addressCode !== null && optOutCodes.includes(addressCode);

/** The saveDraft action with the draft of the context as it is now (after the assigns before it). */
const saveDraftNow = { type: 'saveDraft', params: ({ context }: { context: RegistrationContext }) => draftOf(context) } as const;

const completed = (context: RegistrationContext, step: RegistrationStep): RegistrationStep =>
  Math.max(context.furthestStep, Math.min(step + 1, stepCount)) as RegistrationStep;

// ---------------------------------------------------------------------------------------------
// The chart

/**
 * What views ask the chart: `busy` while a call is under way, `invalid` when the step's check refused
 * what was typed, `failed` when a call gave no answer or an unexpected one, `waiting` for the server's
 * deadline before a new code, `tooManyLookups` for the deadline before another lookup or address
 * check, and the step's own outcomes (`emailTaken`, `ssnNeeded`, `inUse`, `cannotText`, `landline`,
 * `rejected`, `noLegalAddress`); the texted code's tags besides. Which screen shows is `registrationScreen`.
 */
export type RegistrationTag =
  | TextedCodeTag
  | 'emailTaken'
  | 'ssnNeeded'
  | 'tooManyLookups'
  | 'inUse'
  | 'cannotText'
  | 'landline'
  | 'rejected'
  | 'noLegalAddress';

/** The phone typed already had a code sent to it. */
const hadCode = (context: RegistrationContext) => context.codeSentTo === phoneDigits(context.form.phone);
/** A code went to the phone given and has not been used yet. */
const awaitsCode = (context: RegistrationContext) => context.codeSentTo !== null && hadCode(context);

export const registrationMachine = setup({
  types: {
    context: {} as RegistrationContext,
    events: {} as RegistrationEvent,
    input: {} as RegistrationInput,
    tags: {} as RegistrationTag,
  },
  delays: {
    /** The server's deadline for a new code (retryAfterSeconds), checked again when it passes. */
    untilRetry,
  },
  guards: {
    startsAt: ({ context }, params: { step: RegistrationStep }) => context.step === params.step,
    /** Reloaded while the texted code was being read (cheap phones reload when switching apps). */
    resumesAtCode: ({ context }) => context.step === 2 && awaitsCode(context),
    /**
     * Opened at step 1 with a draft that went past the phone (the companion app reloads at its own
     * start, not at the step): the SSN, never kept, is asked for again with the reason said.
     */
    returnsFromFurther: ({ context }) => context.step === 1 && context.verifyPhoneAgain,
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
    /**
     * As isEmailFree, coming to the phone step from the first (a reload of the companion app starts
     * there; a step back) with a code texted to the phone given: that code is asked for, not sent again.
     */
    isEmailFreeAwaitingCode: ({ context }, answer: VerifyEmailAnswer | undefined) => answer?.statusCode === StatusCode.NOT_ALLOWED && awaitsCode(context),
    isPhoneAlreadyVerified: ({ context, event }) =>
      checkPhone(phoneOf(event)) === null &&
      context.mfaToken !== null &&
      context.verifiedPhone === phoneDigits(phoneOf(event)),
    isPhoneValid: ({ event }) => checkPhone(phoneOf(event)) === null,
    /** Not the number the server asked to wait for (too many codes), whose codes are held back. */
    isAnotherPhone: ({ context, event }) => phoneDigits(phoneOf(event)) !== phoneDigits(context.form.phone),
    isPhoneInUse: (_, answer: PhoneInUseAnswer | undefined) => answer?.statusCode === StatusCode.SUCCESS && answer.inUse === true,
    isPhoneFree: (_, answer: PhoneInUseAnswer | undefined) => answer?.statusCode === StatusCode.SUCCESS && answer.inUse === false,
    isCodeSent: (_, answer: RequestVerificationAnswer | undefined) => answer?.statusCode === StatusCode.SUCCESS,
    /** A new code to the phone that already had one ("Send a new code", or the same number typed again). */
    isCodeSentAgain: ({ context }, answer: RequestVerificationAnswer | undefined) =>
      answer?.statusCode === StatusCode.SUCCESS && hadCode(context),
    ...textedCodeGuards,
    isCannotText: (_, answer: RequestVerificationAnswer | undefined) =>
      answer?.statusCode === StatusCode.INVALID_PHONE_NUMBER || answer?.statusCode === StatusCode.MFA_ERROR,
    isLandline: (_, answer: RequestVerificationAnswer | undefined) => answer?.statusCode === StatusCode.INVALID_PHONE_LANDLINE,
    isPhoneVerified: (_, answer: VerifyPhoneAnswer | undefined) => answer?.statusCode === StatusCode.SUCCESS && Boolean(answer.mfaToken),
    isAddressValid: ({ event }) => isEmpty(addressProblems(event)),
    isAddressVerified: (_, answer: VerifyAddressAnswer | undefined) => answer?.statusCode === StatusCode.SUCCESS,
    isAddressRejected: (_, answer: VerifyAddressAnswer | undefined) => answer !== undefined && addressCodes.includes(answer.statusCode),
    canOptOut: ({ context }) => optOutOffered(context),
    isUnlockCodeValid: ({ event }) => isEmpty(unlockCodeProblems(event)),
    isReadyToRegister: ({ context, event }) => isEmpty(agreementProblems(event)) && digitsOf(context.form.ssn).length === 9,
    areAgreementsAccepted: ({ event }) => isEmpty(agreementProblems(event)),
    isRegistered: (_, outcome: RegisterAnswer | undefined) =>
      outcome?.statusCode === StatusCode.SUCCESS && Boolean(outcome.access && outcome.refresh),
    isDenied: (_, outcome: RegisterAnswer | undefined) => outcome?.statusCode === 1,
    isTaken: (_, outcome: RegisterAnswer | undefined) => outcome?.statusCode === 2,
    isRejectedAt: (_, params: { outcome: RegisterAnswer | undefined; step: RegistrationStep }) =>
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
    /** The phone form takes the event again, as if typed there (another phone, while one waits). */
    passToPhoneForm: raise(({ event }) => event),
    storePhone: assign(({ context, event }) => {
      const phone = phoneOf(event);
      const changed = context.verifiedPhone !== phoneDigits(phone);
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
      verifiedPhone: phoneDigits(context.form.phone),
      codeSentTo: null,
      attemptsLeft: null,
    })),
    countAttempts: assign(textedCodeAssigners.countAttempts),
    storeRetryAt: assign(textedCodeAssigners.storeRetryAt),
    clearRetryAt: assign(textedCodeAssigners.clearRetryAt),
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
    rememberCodeSent: assign(({ context }) => ({ codeSentTo: phoneDigits(context.form.phone) })),
    showServerProblems: assign((_, outcome: RegisterAnswer | undefined) => ({
      fieldErrors: serverFieldProblems(outcome?.statusCode === StatusCode.FAILED_VALIDATION ? outcome.fieldErrors : undefined),
    })),
    clearForm: assign({ form: emptyForm, verifiedPhone: null, mfaToken: null, fieldErrors: {}, furthestStep: 1 as RegistrationStep }),
    /** Supplied by the app: keep the draft in core state (null clears it). */
    saveDraft: (_, _draft: RegistrationDraft | null) => {},
    /** Supplied by the app: store the new session's tokens, as sign-in does. */
    storeSession: (_, _outcome: RegisterAnswer | undefined) => {},
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
    verifyAddress: fromPromise<VerifyAddressAnswer, Address>(async () => ({ statusCode: StatusCode.UNEXPECTED_ERROR })),
    register: fromPromise<RegisterAnswer, RegistrationPayload>(async () => {
      throw new Error('register is supplied by the app');
    }),
  },
}).createMachine({
  id: 'registration',
  context: ({ input }) => initialContextOf(input),
  initial: 'restoring',
  states: {
    /**
     * Start at the route's step, or the furthest step the draft reached if that is earlier: at most
     * the phone, which is verified again (`lastRestorableStep`).
     */
    restoring: {
      always: [
        { guard: 'resumesAtCode', target: '#registration.inputting.phone.enteringCode' },
        { guard: { type: 'startsAt', params: { step: 2 } }, target: '#registration.inputting.phone' },
        { guard: 'returnsFromFurther', target: '#registration.inputting.personalInfo.editing.ssnNeeded' },
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
                invalid: { tags: ['invalid'] },
                /** Back from the agreements after a reload, or opened at step 1 after going further: the SSN is never kept. */
                ssnNeeded: { tags: ['ssnNeeded'] },
                /** /verify/email SUCCESS: a Providers account already uses this email. */
                emailTaken: { tags: ['emailTaken'] },
                /** 429 {201}: too many account lookups from this device or network; says how long to wait. */
                tooManyLookups: { tags: ['tooManyLookups'] },
                failed: { tags: ['failed'] },
              },
            },
            checkingEmail: {
              tags: ['busy'],
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
                    guard: { type: 'isEmailFreeAwaitingCode', params: ({ event }) => event.output },
                    target: '#registration.inputting.phone.enteringCode',
                    actions: [{ type: 'completeStep', params: { step: 1 } }, saveDraftNow],
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
                invalid: { tags: ['invalid'] },
                /** Another account uses this number. */
                inUse: { tags: ['inUse'] },
                /** 202 INVALID_PHONE_NUMBER or 203 MFA_ERROR: no text could be sent. */
                cannotText: { tags: ['cannotText'] },
                /** 204 INVALID_PHONE_LANDLINE. */
                landline: { tags: ['landline'] },
                /** 429 {201} from the in-use check: too many account lookups; says how long to wait. */
                tooManyLookups: { tags: ['tooManyLookups'] },
                failed: { tags: ['failed'] },
              },
            },
            checkingInUse: {
              tags: ['busy'],
              invoke: {
                id: 'phoneNumberInUse',
                src: 'phoneNumberInUse',
                input: ({ context }) => ({ phone: phoneDigits(context.form.phone) }),
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
              tags: ['busy'],
              invoke: {
                id: 'requestVerification',
                src: 'requestVerification',
                input: ({ context }) => ({ phone: phoneDigits(context.form.phone) }),
                onDone: [
                  {
                    guard: { type: 'isCodeSentAgain', params: ({ event }) => event.output },
                    target: 'enteringCode.resent',
                    actions: ['clearProblems', saveDraftNow],
                  },
                  {
                    guard: { type: 'isCodeSent', params: ({ event }) => event.output },
                    target: 'enteringCode',
                    actions: ['clearProblems', 'rememberCodeSent', saveDraftNow],
                  },
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
            ...textedCodeStates({
              on: { 'user.changePhone': { target: 'editing' } },
              resend: 'requestingCode',
              verify: {
                id: 'verifyPhone',
                src: 'verifyPhone',
                input: ({ context, event }: { context: RegistrationContext; event: RegistrationEvent }) => ({
                  phone: phoneDigits(context.form.phone),
                  code: submittedCode(event),
                }),
                onDone: [
                  {
                    guard: { type: 'isPhoneVerified', params: ({ event }: { event: { output: VerifyPhoneAnswer } }) => event.output },
                    target: '#registration.inputting.address',
                    actions: [
                      { type: 'storeMfaToken', params: ({ event }: { event: { output: VerifyPhoneAnswer } }) => event.output },
                      { type: 'completeStep', params: { step: 2 } },
                      saveDraftNow,
                    ],
                  },
                  ...textedCodeAnswers(''),
                  { target: 'enteringCode.failed' },
                ],
              },
              afterWait: 'editing',
              // The server holds back codes per phone: the number that had too many waits (the event is
              // ignored); another goes to the phone form, which takes it as typed there (and waits too
              // when the limit was this client's: the server answers it 429 as well).
              waitingOn: { 'user.submitPhone': { guard: 'isAnotherPhone', target: 'editing', actions: ['clearRetryAt', 'passToPhoneForm'] } },
            }),
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
                invalid: { tags: ['invalid'] },
                /** 300-307: `addressCode` says which; 301 and 302 are about the unit. */
                rejected: { tags: ['rejected'] },
                /** Too many address checks from this device or network: `retryAt` says until when. */
                tooManyLookups: { tags: ['tooManyLookups'] },
                failed: { tags: ['failed'] },
              },
            },
            verifying: {
              tags: ['busy'],
              invoke: {
                id: 'verifyAddress',
                src: 'verifyAddress',
                input: ({ context }) => addressOfForm(context.form),
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
            /** "If you don’t have a legal address": an account can only be opened online with one. */
            noLegalAddress: {
              tags: ['noLegalAddress'],
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
            invalid: { tags: ['invalid'] },
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
            invalid: { tags: ['invalid'] },
            /** No answer from /register (network, timeout) or an unexpected one: nothing is lost. */
            failed: { tags: ['failed'] },
            /**
             * 429 {201} from /register: too many account lookups from this device or network (a taken
             * identity counts as one); says how long to wait, then the application can be sent again.
             */
            tooManyLookups: { tags: ['tooManyLookups'] },
          },
        },
      },
    },
    /** PROCESSING (spec §4). */
    processing: {
      tags: ['busy'],
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
            guard: { type: 'isTooManyCodes', params: ({ event }) => event.output },
            target: '#registration.inputting.agreements.tooManyLookups',
            actions: { type: 'storeRetryAt', params: ({ event }) => event.output },
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

/** The screen a chart state shows: a step's form, the account being opened, or a FAILURE. */
export type RegistrationScreen = 'personalInfo' | 'phone' | 'address' | 'unlockCode' | 'agreements' | 'opening' | 'denied' | 'taken';

const stepScreens = ['personalInfo', 'phone', 'address', 'unlockCode', 'agreements'] as const satisfies readonly RegistrationScreen[];

export function registrationScreen(snapshot: RegistrationSnapshot): RegistrationScreen {
  if (snapshot.matches('processing') || snapshot.matches('success')) return 'opening';
  if (snapshot.matches({ failure: 'denied' })) return 'denied';
  if (snapshot.matches({ failure: 'taken' })) return 'taken';
  return stepScreens.find((step) => snapshot.matches({ inputting: step })) ?? 'personalInfo';
}

/** A new code is asked for the phone that had one ("Send a new code"): the code form stays, waiting. */
export const resendsCode = (snapshot: RegistrationSnapshot) =>
  snapshot.matches({ inputting: { phone: 'requestingCode' } }) && hadCode(snapshot.context);

/** The address was refused with the way out offered (spec §8 303-307): the view shows the link. */
export const offersOptOut = (snapshot: RegistrationSnapshot) => snapshot.hasTag('rejected') && optOutOffered(snapshot.context);

/** Which step a chart state shows (processing stays on the agreements), null when no step is shown. */
export function stepOfState(snapshot: RegistrationSnapshot): RegistrationStep | null {
  if (snapshot.matches('inputting')) return snapshot.context.step;
  if (snapshot.matches('processing')) return 5;
  return null;
}
