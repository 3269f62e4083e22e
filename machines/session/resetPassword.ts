/**
 * Reset a forgotten password (spec §2 /reset-password/:step?, §3 reset password payload, §4 password
 * reset, §5 password and SSN, §7 /verify/email, /verify/ssn, /change-password; contract/session/types.ts).
 *
 * Step 1 email (POST /reset-password: the same answer whether or not an account has it; a code is
 * texted to the phone on file when one does). Step 2 "verify your identity": the texted code (the
 * shared texted-code fragment, POST /verify/reset-code: an mfaToken), then the SSN (POST /verify/ssn:
 * 401 {4, attemptsLeft} no match; 201 the server's wait). Step 3 the new password (POST
 * /change-password {email, ssn, password, mfaToken}); a token that has expired meanwhile (30 minutes)
 * goes back to step 1 to ask for a new code. On success the form (SSN and token included) is
 * cleared, then sign-in when the user came from there (`thenSignIn`), else step 4, the done step.
 * The route's step param is fed back as `user.goToStep`: back to an earlier step only; the view follows.
 * This chart lives in the view only: nothing of it is persisted. A reload at step 2 (a phone's browser
 * drops a tab while the text is read) starts again at the code with the email its code was texted for
 * (`codeSentTo`, which the view keeps in that history entry's state), not at step 1: there a new code
 * would void the one on its way and count toward the 5 a phone gets in 10 minutes.
 */
import { assign, fromPromise } from 'xstate';
import { setup } from '../shared/setup.ts';
import type { ChangePasswordRequest, SendResetCodeAnswer, VerifyResetCodeAnswer } from '../../contract/session/types.ts';
import type { VerifySsnAnswer } from '../../contract/identity/types.ts';
import type { FieldErrors, StatusAnswer } from '../../contract/shared/answers.ts';
import { checkEmail, checkNewPassword, digitsOf, normaliseEmail, ValidationMessage } from '../../contract/rules.ts';
import { checkSsn } from '../../contract/identity/rules.ts';
import { StatusCode } from '../../contract/shared/statusCodes.ts';
import { untilRetry } from '../shared/serverWait.ts';
import { ssnCheckGuards, ssnCheckStates, type SsnCheckContext, type SsnCheckTag } from '../shared/ssnCheck.ts';
import { submittedCode, textedCodeAnswers, textedCodeAssigners, textedCodeGuards, textedCodeStates, type TextedCodeTag } from '../shared/textedCode.ts';

export const doneStep = 4;
export type ResetPasswordStep = 1 | 2 | 3 | 4;

export type ResetPasswordContext = SsnCheckContext & {
  thenSignIn: boolean;
  email: string;
  /** Kept only between steps 2 and 3 (the call takes it); cleared on success and when going back. */
  ssn: string;
  /** The texted code's proof of the phone on file, for step 3's call; cleared on success. */
  mfaToken: string;
  fieldError: ValidationMessage | null;
};

export type ResetPasswordEvent =
  | { type: 'user.submitEmail'; email: string }
  | { type: 'user.submitCode'; code: string }
  | { type: 'user.resendCode' }
  | { type: 'user.submitSsn'; ssn: string }
  | { type: 'user.submitPassword'; password: string }
  | { type: 'user.goToStep'; step: number };

/** `codeSentTo`: the email a code was texted for, when the page is opened again at its code step. */
export type ResetPasswordInput = { thenSignIn: boolean; codeSentTo?: string | null };

/**
 * What views ask the chart: the code's and the SSN step's tags (`busy` while a call is under way,
 * `invalid`, `failed`, `waiting`, `wrongCode`, `mismatch`, `textedCode` while the code form shows,
 * `resending`), and step 1's `tooManyLookups` and `codeExpired`.
 */
export type ResetPasswordTag = SsnCheckTag | TextedCodeTag | 'tooManyLookups' | 'codeExpired' | 'resending';

/** A call's answer, as the guards and actions of its `onDone` take it. */
const answerOf = ({ event }: { event: { output: StatusAnswer & { retryAfterSeconds?: number } } }) => event.output;

export const resetPasswordMachine = setup({
  types: {
    context: {} as ResetPasswordContext,
    events: {} as ResetPasswordEvent,
    input: {} as ResetPasswordInput,
    tags: {} as ResetPasswordTag,
  },
  delays: {
    untilRetry,
  },
  guards: {
    ...ssnCheckGuards,
    ...textedCodeGuards,
    isEmailValid: ({ event }) => event.type === 'user.submitEmail' && checkEmail(event.email) === null,
    /** Opened again at the code step: the email is the one the code was texted for (it is empty otherwise until step 1 sends one). */
    wasCodeSent: ({ context }) => context.email !== '',
    /** 400 `{4, fieldErrors: {password: 'password.common'}}`: the password is known from breaches. */
    isPasswordRefused: (_, output: StatusAnswer & { fieldErrors?: FieldErrors }) =>
      output.statusCode === StatusCode.FAILED_VALIDATION && output.fieldErrors?.password === ValidationMessage.passwordCommon,
    isPasswordValid: ({ event }) => event.type === 'user.submitPassword' && checkNewPassword(event.password) === null,
    isStep: ({ event }, params: { step: ResetPasswordStep }) => event.type === 'user.goToStep' && event.step === params.step,
    isSuccess: (_, answer: StatusAnswer | undefined) => answer?.statusCode === StatusCode.SUCCESS,
    /** 400 `{4, fieldErrors: {mfaToken}}`: the texted code's proof expired or was spent; a new code is needed. */
    isCodeExpired: (_, output: StatusAnswer & { fieldErrors?: FieldErrors }) =>
      output.statusCode === StatusCode.FAILED_VALIDATION && output.fieldErrors?.mfaToken !== undefined,
    isSsnVerified: (_, answer: VerifySsnAnswer | undefined) => answer?.statusCode === StatusCode.SUCCESS,
    isChangedThenSignIn: ({ context }, answer: StatusAnswer | undefined) => context.thenSignIn && answer?.statusCode === StatusCode.SUCCESS,
  },
  actions: {
    storeEmail: assign(({ event }) =>
      event.type === 'user.submitEmail' ? { email: normaliseEmail(event.email), fieldError: checkEmail(event.email) } : {},
    ),
    storeMfaToken: assign((_, answer: VerifyResetCodeAnswer) => ({ mfaToken: answer.mfaToken ?? '' })),
    storeSsn: assign(({ event }) => (event.type === 'user.submitSsn' ? { ssn: digitsOf(event.ssn), fieldError: null, attemptsLeft: null } : {})),
    showSsnError: assign(({ event }) => (event.type === 'user.submitSsn' ? { ssn: '', fieldError: checkSsn(event.ssn) } : {})),
    showPasswordError: assign(({ event }) => (event.type === 'user.submitPassword' ? { fieldError: checkNewPassword(event.password) } : {})),
    /** The card API refused the password itself (too common): shown on the field like the rules' messages. */
    showRefusedPassword: assign({ fieldError: ValidationMessage.passwordCommon }),
    clearProblems: assign({ fieldError: null, attemptsLeft: null }),
    forgetSsn: assign({ ssn: '' }),
    // The code's and the SSN's answers alike (the texted-code fragment's types are the wider).
    countAttempts: assign(textedCodeAssigners.countAttempts),
    storeRetryAt: assign(textedCodeAssigners.storeRetryAt),
    clearRetryAt: assign(textedCodeAssigners.clearRetryAt),
    /** Spec §4: the form is cleared on success. The email stays, for the sign-in the reset hands it to (WCAG 2.2 SC 3.3.7). */
    clearForm: assign({ ssn: '', mfaToken: '', fieldError: null, attemptsLeft: null, retryAt: null }),
    forgetMfaToken: assign({ mfaToken: '', ssn: '' }),
    /** Supplied by the app: sign-in, saying the password changed, with the account's email filled in. */
    goToSignIn: (_, _params: { email: string }) => {},
  },
  actors: {
    sendResetCode: fromPromise<SendResetCodeAnswer, { email: string }>(async () => ({ statusCode: StatusCode.UNEXPECTED_ERROR })),
    verifyResetCode: fromPromise<VerifyResetCodeAnswer, { email: string; code: string }>(async () => ({ statusCode: StatusCode.UNEXPECTED_ERROR })),
    verifySsn: fromPromise<VerifySsnAnswer, { email: string; ssn: string; mfaToken: string }>(async () => ({ statusCode: StatusCode.UNEXPECTED_ERROR })),
    changePassword: fromPromise<StatusAnswer, ChangePasswordRequest>(async () => ({ statusCode: StatusCode.UNEXPECTED_ERROR })),
  },
}).createMachine({
  id: 'resetPassword',
  context: ({ input }) => ({
    thenSignIn: input.thenSignIn,
    email: input.codeSentTo && checkEmail(input.codeSentTo) === null ? normaliseEmail(input.codeSentTo) : '',
    ssn: '',
    mfaToken: '',
    fieldError: null,
    attemptsLeft: null,
    retryAt: null,
  }),
  initial: 'start',
  states: {
    start: {
      always: [{ guard: 'wasCodeSent', target: 'code' }, { target: 'email' }],
    },
    /** Step 1. */
    email: {
      entry: 'forgetMfaToken',
      initial: 'editing',
      states: {
        editing: {
          initial: 'idle',
          on: {
            'user.submitEmail': [
              { guard: 'isEmailValid', target: 'sendingCode', actions: 'storeEmail' },
              { target: '.invalid', actions: 'storeEmail' },
            ],
          },
          states: {
            idle: {},
            invalid: { tags: ['invalid'] },
            /** 429 {201}: too many account lookups from this device or network; says how long to wait. */
            tooManyLookups: { tags: ['tooManyLookups'] },
            /** Step 3's call found the code's proof expired: a new code is needed. */
            codeExpired: { tags: ['codeExpired'] },
            failed: { tags: ['failed'] },
          },
        },
        /** POST /reset-password: SUCCESS whether or not an account has the email. */
        sendingCode: {
          tags: ['busy'],
          invoke: {
            id: 'sendResetCode',
            src: 'sendResetCode',
            input: ({ context }) => ({ email: context.email }),
            onDone: [
              { guard: { type: 'isSuccess', params: answerOf }, target: '#resetPassword.code' },
              { guard: { type: 'isTooMany', params: answerOf }, target: 'editing.tooManyLookups', actions: { type: 'storeRetryAt', params: answerOf } },
              { target: 'editing.failed' },
            ],
            onError: { target: 'editing.failed' },
          },
        },
      },
    },
    /** Step 2, first the texted code (machines/shared/textedCode.ts). */
    code: {
      entry: 'clearProblems',
      initial: 'enteringCode',
      on: { 'user.goToStep': { guard: { type: 'isStep', params: { step: 1 } }, target: '#resetPassword.email' } },
      states: {
        ...textedCodeStates({
          resend: 'resendingCode',
          verify: {
            id: 'verifyResetCode',
            src: 'verifyResetCode',
            input: ({ context, event }: { context: ResetPasswordContext; event: ResetPasswordEvent }) => ({ email: context.email, code: submittedCode(event) }),
            onDone: [
              { guard: { type: 'isSuccess', params: answerOf }, target: '#resetPassword.ssn', actions: { type: 'storeMfaToken', params: answerOf } },
              ...textedCodeAnswers(''),
              { target: 'enteringCode.failed' },
            ],
          },
          afterWait: 'enteringCode',
        }),
        /** "Send a new code": POST /reset-password again. */
        resendingCode: {
          tags: ['busy', 'resending'],
          entry: 'clearProblems',
          invoke: {
            id: 'resendResetCode',
            src: 'sendResetCode',
            input: ({ context }) => ({ email: context.email }),
            onDone: [
              { guard: { type: 'isSuccess', params: answerOf }, target: 'enteringCode.resent' },
              { guard: { type: 'isTooMany', params: answerOf }, target: 'waiting', actions: { type: 'storeRetryAt', params: answerOf } },
              { target: 'enteringCode.failed' },
            ],
            onError: { target: 'enteringCode.failed' },
          },
        },
      },
    },
    /** Step 2, then "Verify your identity" (machines/shared/ssnCheck.ts). The SSN is kept for step 3's call, and forgotten unless verified. */
    ssn: {
      entry: ['clearProblems', 'forgetSsn'],
      initial: 'editing',
      states: ssnCheckStates({
        on: { 'user.goToStep': { guard: { type: 'isStep', params: { step: 1 } }, target: '#resetPassword.email' } },
        submitted: 'storeSsn',
        input: ({ context }: { context: ResetPasswordContext }) => ({ email: context.email, ssn: context.ssn, mfaToken: context.mfaToken }),
        verified: { target: '#resetPassword.password' },
        notVerified: ['forgetSsn'],
        // The texted code's proof expired (30 minutes) or was spent: a new code is needed, as at step 3.
        proofLost: [
          {
            guard: { type: 'isCodeExpired', params: ({ event }: { event: { output: VerifySsnAnswer } }) => event.output },
            target: '#resetPassword.email.editing.codeExpired',
            actions: ['forgetSsn'],
          },
        ],
      }),
    },
    /** Step 3. */
    password: {
      entry: 'clearProblems',
      initial: 'editing',
      states: {
        editing: {
          initial: 'idle',
          on: {
            'user.goToStep': [
              { guard: { type: 'isStep', params: { step: 1 } }, target: '#resetPassword.email' },
              { guard: { type: 'isStep', params: { step: 2 } }, target: '#resetPassword.ssn' },
            ],
            'user.submitPassword': [
              { guard: 'isPasswordValid', target: 'changing', actions: 'clearProblems' },
              { target: '.invalid', actions: 'showPasswordError' },
            ],
          },
          states: {
            idle: {},
            invalid: { tags: ['invalid'] },
            failed: { tags: ['failed'] },
          },
        },
        changing: {
          tags: ['busy'],
          invoke: {
            id: 'changePassword',
            src: 'changePassword',
            input: ({ context, event }) => ({
              email: context.email,
              ssn: context.ssn,
              password: event.type === 'user.submitPassword' ? event.password : '',
              mfaToken: context.mfaToken,
            }),
            onDone: [
              {
                guard: { type: 'isChangedThenSignIn', params: ({ event }) => event.output },
                target: '#resetPassword.backToSignIn',
                actions: [{ type: 'goToSignIn', params: ({ context }) => ({ email: context.email }) }, 'clearForm'],
              },
              { guard: { type: 'isSuccess', params: ({ event }) => event.output }, target: '#resetPassword.done', actions: 'clearForm' },
              { guard: { type: 'isPasswordRefused', params: ({ event }) => event.output }, target: 'editing.invalid', actions: 'showRefusedPassword' },
              { guard: { type: 'isCodeExpired', params: ({ event }) => event.output }, target: '#resetPassword.email.editing.codeExpired' },
              { target: 'editing.failed' },
            ],
            onError: { target: 'editing.failed' },
          },
        },
      },
    },
    /** Step 4, the done step: "Your password has been changed." with a sign-in link. */
    done: { type: 'final' },
    /** Came from sign-in: back there, with a notice. */
    backToSignIn: { type: 'final' },
  },
});

export type ResetPasswordSnapshot = ReturnType<typeof resetPasswordMachine.getInitialSnapshot>;

/** The reset is over and the app went back to sign-in: the route's step param no longer follows the chart. */
export const wentBackToSignIn = (snapshot: ResetPasswordSnapshot) => snapshot.matches('backToSignIn');

/** The step a state shows (the route's step param follows it). */
export function stepOfResetPassword(snapshot: { matches: (value: never) => boolean }): ResetPasswordStep {
  const at = (value: string) => snapshot.matches(value as never);
  if (at('done') || at('backToSignIn')) return doneStep;
  if (at('password')) return 3;
  if (at('ssn') || at('code')) return 2;
  return 1;
}
