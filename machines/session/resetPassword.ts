/**
 * Reset a forgotten password (spec §2 /reset-password/:step?, §3 reset password payload, §4 password
 * reset, §5 password and SSN, §7 /verify/email, /verify/ssn, /change-password; contract/session/types.ts).
 *
 * Step 1 email (POST /verify/email: SUCCESS when an account has it, 404 NOT_ALLOWED when none), step 2
 * SSN (POST /verify/ssn: ssnToken; 401 {4, attemptsLeft} no match; 201 the server's wait), step 3 the
 * new password (POST /change-password {email, ssn, password}). On success the form (SSN included) is
 * cleared, then sign-in when the user came from there (`thenSignIn`), else step 4, the done step.
 * The route's step param is fed back as `user.goToStep`: back to an earlier step only; the view follows.
 * This chart lives in the view only: nothing of it is persisted.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { ChangePasswordRequest } from '../../contract/session/types.ts';
import type { VerifySsnAnswer } from '../../contract/identity/types.ts';
import type { FieldErrors, StatusAnswer } from '../../contract/shared/answers.ts';
import type { VerifyEmailAnswer } from '../../contract/identity/types.ts';
import { checkEmail, checkNewPassword, checkSsn, digitsOf, normaliseEmail, ValidationMessage } from '../../contract/rules.ts';
import { StatusCode } from '../../contract/shared/statusCodes.ts';
import { untilRetry } from '../shared/serverWait.ts';
import { ssnCheckAssigners, ssnCheckGuards, ssnCheckStates, type SsnCheckContext, type SsnCheckTag } from '../shared/ssnCheck.ts';

export const doneStep = 4;
export type ResetPasswordStep = 1 | 2 | 3 | 4;

export type ResetPasswordContext = SsnCheckContext & {
  thenSignIn: boolean;
  email: string;
  /** Kept only between steps 2 and 3 (the call takes it); cleared on success and when going back. */
  ssn: string;
  fieldError: ValidationMessage | null;
};

export type ResetPasswordEvent =
  | { type: 'user.submitEmail'; email: string }
  | { type: 'user.submitSsn'; ssn: string }
  | { type: 'user.submitPassword'; password: string }
  | { type: 'user.goToStep'; step: number };

export type ResetPasswordInput = { thenSignIn: boolean };

/**
 * What views ask the chart: the SSN step's tags (`busy` while a call is under way, `invalid`,
 * `failed`, `waiting`, `mismatch`), and step 1's `unknown` (no such account) and `tooManyLookups`.
 */
export type ResetPasswordTag = SsnCheckTag | 'unknown' | 'tooManyLookups';

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
    isEmailValid: ({ event }) => event.type === 'user.submitEmail' && checkEmail(event.email) === null,
    /** 400 `{4, fieldErrors: {password: 'password.common'}}`: the password is known from breaches. */
    isPasswordRefused: (_, output: StatusAnswer & { fieldErrors?: FieldErrors }) =>
      output.statusCode === StatusCode.FAILED_VALIDATION && output.fieldErrors?.password === ValidationMessage.passwordCommon,
    isPasswordValid: ({ event }) => event.type === 'user.submitPassword' && checkNewPassword(event.password) === null,
    isStep: ({ event }, params: { step: ResetPasswordStep }) => event.type === 'user.goToStep' && event.step === params.step,
    isSuccess: (_, answer: StatusAnswer | undefined) => answer?.statusCode === StatusCode.SUCCESS,
    isUnknownEmail: (_, answer: StatusAnswer | undefined) => answer?.statusCode === StatusCode.NOT_ALLOWED,
    isSsnVerified: (_, answer: VerifySsnAnswer | undefined) => answer?.statusCode === StatusCode.SUCCESS,
    isChangedThenSignIn: ({ context }, answer: StatusAnswer | undefined) => context.thenSignIn && answer?.statusCode === StatusCode.SUCCESS,
  },
  actions: {
    storeEmail: assign(({ event }) =>
      event.type === 'user.submitEmail' ? { email: normaliseEmail(event.email), fieldError: checkEmail(event.email) } : {},
    ),
    storeSsn: assign(({ event }) => (event.type === 'user.submitSsn' ? { ssn: digitsOf(event.ssn), fieldError: null, attemptsLeft: null } : {})),
    showSsnError: assign(({ event }) => (event.type === 'user.submitSsn' ? { ssn: '', fieldError: checkSsn(event.ssn) } : {})),
    showPasswordError: assign(({ event }) => (event.type === 'user.submitPassword' ? { fieldError: checkNewPassword(event.password) } : {})),
    /** The card API refused the password itself (too common): shown on the field like the rules' messages. */
    showRefusedPassword: assign({ fieldError: ValidationMessage.passwordCommon }),
    clearProblems: assign({ fieldError: null, attemptsLeft: null }),
    forgetSsn: assign({ ssn: '' }),
    countAttempts: assign(ssnCheckAssigners.countAttempts),
    storeRetryAt: assign(ssnCheckAssigners.storeRetryAt),
    clearRetryAt: assign(ssnCheckAssigners.clearRetryAt),
    /** Spec §4: the form is cleared on success. */
    clearForm: assign({ email: '', ssn: '', fieldError: null, attemptsLeft: null, retryAt: null }),
    /** Supplied by the app: sign-in, saying the password changed. */
    goToSignIn: () => {},
  },
  actors: {
    verifyEmail: fromPromise<VerifyEmailAnswer, { email: string }>(async () => ({ statusCode: StatusCode.UNEXPECTED_ERROR })),
    verifySsn: fromPromise<VerifySsnAnswer, { email: string; ssn: string }>(async () => ({ statusCode: StatusCode.UNEXPECTED_ERROR })),
    changePassword: fromPromise<StatusAnswer, ChangePasswordRequest>(async () => ({ statusCode: StatusCode.UNEXPECTED_ERROR })),
  },
}).createMachine({
  id: 'resetPassword',
  context: ({ input }) => ({ thenSignIn: input.thenSignIn, email: '', ssn: '', fieldError: null, attemptsLeft: null, retryAt: null }),
  initial: 'email',
  states: {
    /** Step 1. */
    email: {
      initial: 'editing',
      states: {
        editing: {
          initial: 'idle',
          on: {
            'user.submitEmail': [
              { guard: 'isEmailValid', target: 'verifying', actions: 'storeEmail' },
              { target: '.invalid', actions: 'storeEmail' },
            ],
          },
          states: {
            idle: {},
            invalid: { tags: ['invalid'] },
            /** 404 {3}: "That email doesn't match an existing account." */
            unknown: { tags: ['unknown'] },
            /** 429 {201}: too many account lookups from this device or network; says how long to wait. */
            tooManyLookups: { tags: ['tooManyLookups'] },
            failed: { tags: ['failed'] },
          },
        },
        verifying: {
          tags: ['busy'],
          invoke: {
            id: 'verifyEmail',
            src: 'verifyEmail',
            input: ({ context }) => ({ email: context.email }),
            onDone: [
              { guard: { type: 'isSuccess', params: ({ event }) => event.output }, target: '#resetPassword.ssn' },
              { guard: { type: 'isUnknownEmail', params: ({ event }) => event.output }, target: 'editing.unknown' },
              {
                guard: { type: 'isTooMany', params: ({ event }) => event.output },
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
    /** Step 2: "Verify your identity" (machines/shared/ssnCheck.ts). The SSN is kept for step 3's call, and forgotten unless verified. */
    ssn: {
      entry: ['clearProblems', 'forgetSsn'],
      initial: 'editing',
      states: ssnCheckStates({
        on: { 'user.goToStep': { guard: { type: 'isStep', params: { step: 1 } }, target: '#resetPassword.email' } },
        submitted: 'storeSsn',
        input: ({ context }: { context: ResetPasswordContext }) => ({ email: context.email, ssn: context.ssn }),
        verified: { target: '#resetPassword.password' },
        notVerified: ['forgetSsn'],
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
            }),
            onDone: [
              {
                guard: { type: 'isChangedThenSignIn', params: ({ event }) => event.output },
                target: '#resetPassword.backToSignIn',
                actions: ['clearForm', 'goToSignIn'],
              },
              { guard: { type: 'isSuccess', params: ({ event }) => event.output }, target: '#resetPassword.done', actions: 'clearForm' },
              { guard: { type: 'isPasswordRefused', params: ({ event }) => event.output }, target: 'editing.invalid', actions: 'showRefusedPassword' },
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
  if (at('ssn')) return 2;
  return 1;
}
