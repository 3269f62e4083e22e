/**
 * Sign in with email and password, and a texted code when the server asks for one (spec §2 /signin,
 * §3 auth state, §4 auth, §7 POST /sign-in, §8 sign-in and MFA codes; contract/session/types.ts).
 *
 * editing → submitting → signedIn, or → mfa when the server answers MFA_REQUIRED (105) with the
 * masked phone: the code is sent with the same call (`verifyingCode`), a new one is asked for without
 * it (`resendingCode`). Too many codes (201) waits for the server's deadline (`retryAt`), as does a
 * wrong password while sign-in is paused (100 with `retryAfterSeconds`). After a lockout the answer
 * says `mustResetUnlockCode`: the session is stored, then the app goes to /reset-unlock-code.
 * The code entry is the shared texted-code fragment (machines/shared/textedCode.ts). How each failure
 * ends: a form the rules refuse → `editing.invalid`; wrong credentials → `editing.rejected` (or
 * `paused` while the server waits); no answer or an unexpected one → `editing.failed`, or
 * `mfa.enteringCode.failed` once a code was asked for; no code could be texted → `mfa.cannotText`.
 * The password stays in this chart's context only while it is needed to send the code; the chart is
 * never persisted.
 */
import { assign, fromPromise, type SnapshotFrom } from 'xstate';
import { setup } from '../shared/setup.ts';
import type { Credentials, SignInAnswer, SignInRequest } from '../../contract/session/types.ts';
import { StatusCode } from '../../contract/shared/statusCodes.ts';
import { fieldErrors, normaliseEmail, signInChecks, type ValidationMessage } from '../../contract/rules.ts';
import { untilRetry } from '../shared/serverWait.ts';
import {
  submittedCode,
  textedCodeAnswers,
  textedCodeAssigners,
  textedCodeGuards,
  textedCodeStates,
  type TextedCodeTag,
} from '../shared/textedCode.ts';

export type SignInContext = {
  email: string;
  password: string;
  fieldErrors: Partial<Record<keyof Credentials, ValidationMessage>>;
  /** The masked phone the code went to (105, 202-204). */
  phone: string | null;
  /** Why no code could be texted: 202 invalid phone, 203 not sent, 204 landline. */
  textProblem: number | null;
  attemptsLeft: number | null;
  /** When the server allows another try (ms since the epoch, from retryAfterSeconds). */
  retryAt: number | null;
};

export type SignInEvent =
  | { type: 'user.submit'; email: string; password: string }
  | { type: 'user.submitCode'; code: string }
  | { type: 'user.resendCode' }
  | { type: 'user.backToSignIn' };

const cannotTextCodes: readonly number[] = [StatusCode.INVALID_PHONE_NUMBER, StatusCode.MFA_ERROR, StatusCode.INVALID_PHONE_LANDLINE];

type Answer = SignInAnswer | undefined;

const output = ({ event }: { event: { output: Answer } }) => event.output;

/** The answers every /sign-in call may get, in order; `fallback` is where anything else goes. */
const answered = <Fallback extends string>(fallback: Fallback, codeTexted: `#signIn.mfa.enteringCode${'' | '.resent'}` = '#signIn.mfa.enteringCode') =>
  [
  {
    guard: { type: 'mustResetUnlockCode', params: output },
    target: '#signIn.signedIn',
    actions: [{ type: 'storeSession', params: output }, 'forgetPassword', 'goToResetUnlockCode'],
  },
  {
    guard: { type: 'isSignedIn', params: output },
    target: '#signIn.signedIn',
    actions: [{ type: 'storeSession', params: output }, 'forgetPassword', 'continueToApp'],
  },
  {
    guard: { type: 'isCodeTexted', params: output },
    target: codeTexted,
    actions: { type: 'storeCodeSent', params: output },
  },
  ...textedCodeAnswers('#signIn.mfa.'),
  {
    guard: { type: 'isCannotText', params: output },
    target: '#signIn.mfa.cannotText',
    actions: { type: 'storeTextProblem', params: output },
  },
  {
    guard: { type: 'isRejectedWithWait', params: output },
    target: '#signIn.paused',
    actions: ['forgetPassword', { type: 'storeRetryAt', params: output }],
  },
  {
    guard: { type: 'isRejected', params: output },
    target: '#signIn.editing.rejected',
    actions: 'forgetPassword',
  },
  { target: fallback },
  ] as const;

/**
 * What views ask the chart (src/features/session/signIn/SignInView.tsx): `askingForCode` while the texted code is
 * asked for (105), `busy` while a call is under way or the app moves on, `rejected` after a wrong email
 * or password (and `resumed` too once the server's pause after one is over), `waiting` for the server's
 * deadline (paused sign-in, too many codes), `resending` while a new code is asked for, `cannotText`
 * when none could be sent; the texted code's tags besides.
 */
export type SignInTag = TextedCodeTag | 'askingForCode' | 'rejected' | 'resumed' | 'resending' | 'cannotText';

export const signInMachine = setup({
  types: {
    context: {} as SignInContext,
    events: {} as SignInEvent,
    tags: {} as SignInTag,
  },
  delays: {
    /** The server's deadline (retryAfterSeconds), checked again when it passes. */
    untilRetry,
  },
  guards: {
    isFormValid: ({ event }) => event.type === 'user.submit' && Object.keys(fieldErrors(signInChecks, formOf(event))).length === 0,
    ...textedCodeGuards,
    isSignedIn: (_, answer: Answer) => answer?.statusCode === StatusCode.SUCCESS && Boolean(answer.access && answer.refresh),
    mustResetUnlockCode: (_, answer: Answer) =>
      answer?.statusCode === StatusCode.SUCCESS && Boolean(answer.access && answer.refresh) && answer.mustResetUnlockCode === true,
    isCodeTexted: (_, answer: Answer) => answer?.statusCode === StatusCode.MFA_REQUIRED,
    isCannotText: (_, answer: Answer) => answer !== undefined && cannotTextCodes.includes(answer.statusCode),
    isRejectedWithWait: (_, answer: Answer) =>
      answer?.statusCode === StatusCode.INVALID_CREDENTIALS && (answer.retryAfterSeconds ?? 0) > 0,
    isRejected: (_, answer: Answer) => answer?.statusCode === StatusCode.INVALID_CREDENTIALS,
  },
  actions: {
    rememberCredentials: assign(({ event }) =>
      event.type === 'user.submit' ? { email: normaliseEmail(event.email), password: event.password, fieldErrors: {} } : {},
    ),
    showFieldErrors: assign(({ event }) =>
      event.type === 'user.submit' ? { email: event.email, password: '', fieldErrors: fieldErrors(signInChecks, formOf(event)) } : {},
    ),
    forgetPassword: assign({ password: '' }),
    storeCodeSent: assign((_, answer: Answer) => ({ phone: answer?.phone ?? null, attemptsLeft: null, textProblem: null })),
    countAttempts: assign(textedCodeAssigners.countAttempts),
    storeTextProblem: assign((_, answer: Answer) => ({ phone: answer?.phone ?? null, textProblem: answer?.statusCode ?? null })),
    storeRetryAt: assign(textedCodeAssigners.storeRetryAt),
    clearRetryAt: assign(textedCodeAssigners.clearRetryAt),
    leaveMfa: assign({ password: '', phone: null, attemptsLeft: null, textProblem: null, retryAt: null }),
    /** Supplied by the app: store the tokens in the session. */
    storeSession: (_, _answer: Answer) => {},
    /** Supplied by the app: continue to the remembered route or home. */
    continueToApp: () => {},
    /** Supplied by the app: after an unlock lockout, the unlock code must be reset first. */
    goToResetUnlockCode: () => {},
  },
  actors: {
    signIn: fromPromise<SignInAnswer, SignInRequest>(async () => ({ statusCode: StatusCode.UNEXPECTED_ERROR })),
  },
}).createMachine({
  id: 'signIn',
  context: { email: '', password: '', fieldErrors: {}, phone: null, textProblem: null, attemptsLeft: null, retryAt: null },
  initial: 'editing',
  states: {
    editing: {
      initial: 'idle',
      on: {
        'user.submit': [
          { guard: 'isFormValid', target: 'submitting', actions: 'rememberCredentials' },
          { target: '.invalid', actions: 'showFieldErrors' },
        ],
      },
      states: {
        idle: {},
        invalid: { tags: ['invalid'] },
        /** INVALID_CREDENTIALS: wrong email or password. */
        rejected: { tags: ['rejected'] },
        /** The server's pause is over: sign-in may be tried again (the paused try's password was never compared). */
        resumed: { tags: ['rejected', 'resumed'] },
        /** No answer or an unexpected one. */
        failed: { tags: ['failed'] },
      },
    },
    /** Wrong email or password, and sign-in paused by the server until `retryAt`. */
    paused: {
      tags: ['rejected', 'waiting'],
      after: { untilRetry: { target: 'editing.resumed', actions: 'clearRetryAt' } },
    },
    submitting: {
      tags: ['busy'],
      invoke: {
        id: 'signIn',
        src: 'signIn',
        input: ({ context }) => ({ email: context.email, password: context.password }),
        onDone: answered('#signIn.editing.failed'),
        onError: { target: 'editing.failed', actions: 'forgetPassword' },
      },
    },
    /** A texted code (105): the same call again with `code`. */
    mfa: {
      tags: ['askingForCode'],
      on: { 'user.backToSignIn': { target: 'editing', actions: 'leaveMfa' } },
      initial: 'enteringCode',
      states: {
        ...textedCodeStates({
          resend: 'resendingCode',
          verify: {
            id: 'verifyCode',
            src: 'signIn',
            input: ({ context, event }: { context: SignInContext; event: SignInEvent }) => ({
              email: context.email,
              password: context.password,
              code: submittedCode(event),
            }),
            onDone: answered('#signIn.mfa.enteringCode.failed'),
          },
          afterWait: 'enteringCode',
        }),
        /** "Send a new code": POST /sign-in without a code. */
        resendingCode: {
          tags: ['busy', 'resending'],
          invoke: {
            id: 'resendCode',
            src: 'signIn',
            input: ({ context }) => ({ email: context.email, password: context.password }),
            onDone: answered('#signIn.mfa.enteringCode.failed', '#signIn.mfa.enteringCode.resent'),
            onError: { target: 'enteringCode.failed' },
          },
        },
        /** 202, 203 or 204: no code could be texted to the phone on file. */
        cannotText: {
          tags: ['cannotText'],
          on: { 'user.resendCode': { target: 'resendingCode' } },
        },
      },
    },
    /** Signed in: the app moves on; the form stays busy until it does. */
    signedIn: { type: 'final', tags: ['busy', 'verifying'] },
  },
});

/** Submit normalisation: the email is trimmed, the password sent as typed. */
function formOf(event: { email: string; password: string }): Credentials {
  return { email: normaliseEmail(event.email), password: event.password };
}

export type SignInSnapshot = SnapshotFrom<typeof signInMachine>;
