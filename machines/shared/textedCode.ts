/**
 * The texted code (spec §4 attempts, §8 MFA codes): the 6-digit code both registration (verifying the
 * phone) and sign-in (105 MFA_REQUIRED) ask for; the view is src/shared/textedCode/TextedCodeEntry.tsx.
 *
 * How each failure ends: a code that is not 6 digits (contract/rules.ts isTextedCode) → `enteringCode.invalid` (nothing sent); a wrong
 * code (200 INVALID_MFA_CODE) → `enteringCode.wrongCode` with the tries left; too many codes (201) →
 * `waiting` until the server's deadline (machines/shared/serverWait.ts), then the chart's
 * `afterWait` state; no answer or an unexpected one → `enteringCode.failed`.
 *
 * What both charts share is here: guards (spread into the chart's `setup`), what its actions assign,
 * the answers every code check may get (`textedCodeAnswers`) and the states (`textedCodeStates`).
 * Each chart keeps what differs: what the check is sent, where a right code leads, how a new code is
 * asked for.
 */
import type { EventObject } from 'xstate';
import { isTextedCode } from '../../contract/rules.ts';
import { StatusCode } from '../../contract/shared/statusCodes.ts';
import type { MayBeTooMany } from '../../contract/shared/answers.ts';
import { retryAtOf } from './serverWait.ts';

/** What the fragment keeps in a chart's context: the tries left after a wrong code, the end of the server's wait. */
export type TextedCodeContext = { attemptsLeft: number | null; retryAt: number | null };

/** The part of an answer the fragment reads. */
type CodeAnswer = ({ statusCode?: number; attemptsLeft?: number } & MayBeTooMany) | undefined;

type CodeSubmitted = { type: 'user.submitCode'; code: string };
const isCodeSubmitted = (event: EventObject): event is CodeSubmitted => event.type === 'user.submitCode';

/** The code the user typed, as the check's input takes it. */
export const submittedCode = (event: EventObject): string => (isCodeSubmitted(event) && typeof event.code === 'string' ? event.code : '');

export const textedCodeGuards = {
  isCodeWellFormed: ({ event }: { event: EventObject }) => isTextedCode(submittedCode(event)),
  isWrongCode: (_: unknown, answer: CodeAnswer) => answer?.statusCode === StatusCode.INVALID_MFA_CODE,
  isTooManyCodes: (_: unknown, answer: CodeAnswer) => answer?.statusCode === StatusCode.INVALID_MFA_LIMIT,
};

/** What the fragment's actions assign (each chart wraps them in `assign`). */
export const textedCodeAssigners = {
  countAttempts: (_: unknown, answer: CodeAnswer) => ({ attemptsLeft: answer?.attemptsLeft ?? null }),
  storeRetryAt: (_: unknown, answer: CodeAnswer) => ({ retryAt: retryAtOf(answer) }),
  clearRetryAt: () => ({ retryAt: null }),
};

/** A call's answer, as the guards and actions of its `onDone` take it. */
const answerOf = ({ event }: { event: { output: CodeAnswer } }) => event.output;

/**
 * The answers of a code check that the fragment handles: a wrong code and too many codes. `at` is
 * where the fragment's states are ('' from inside them, `#signIn.mfa.` from elsewhere in the chart).
 */
export const textedCodeAnswers = <const At extends string>(at: At) =>
  [
    {
      guard: { type: 'isWrongCode', params: answerOf },
      target: `${at}enteringCode.wrongCode`,
      actions: { type: 'countAttempts', params: answerOf },
    },
    {
      guard: { type: 'isTooManyCodes', params: answerOf },
      target: `${at}waiting`,
      actions: { type: 'storeRetryAt', params: answerOf },
    },
  ] as const;

/**
 * The states: `enteringCode` sends a well-formed code to `verifyingCode` (the chart's call); its
 * substates say why it is back (or that a new code was sent). `waiting` is the server's wait after too
 * many codes. Tags: `busy` while the code is checked, `resent`, `invalid`, `wrongCode` and `failed` on
 * the substates, `waiting`, and
 * `textedCode` on every state where the code form shows.
 */
export function textedCodeStates<
  const TOn extends object,
  const TResend extends string,
  const TVerify extends object,
  const TAfterWait extends string,
  const TWaitingOn extends object = Record<never, never>,
>(chart: {
  /** `enteringCode`'s other transitions (change the phone). */
  on?: TOn;
  /** Where "Send a new code" goes. */
  resend: TResend;
  /** The check's `invoke` without its `onError` (`id`, `src`, `input`, `onDone`). */
  verify: TVerify;
  /** Where the server's wait ends. */
  afterWait: TAfterWait;
  /** What `waiting` still takes (registration: another phone, whose codes are not held back). */
  waitingOn?: TWaitingOn;
}) {
  return {
    enteringCode: {
      tags: ['textedCode'],
      initial: 'idle',
      on: {
        ...chart.on,
        'user.submitCode': [{ guard: 'isCodeWellFormed', target: 'verifyingCode' }, { target: '.invalid' }],
        'user.resendCode': { target: chart.resend },
      },
      states: {
        idle: {},
        /** A new code was texted ("Send a new code"): the form says so. */
        resent: { tags: ['resent'] },
        invalid: { tags: ['invalid'] },
        /** 200 INVALID_MFA_CODE, with the tries left. */
        wrongCode: { tags: ['wrongCode'] },
        failed: { tags: ['failed'] },
      },
    },
    verifyingCode: {
      tags: ['textedCode', 'busy', 'verifying'],
      invoke: { ...chart.verify, onError: { target: 'enteringCode.failed' } },
    },
    /** Too many codes (201): the server's wait (10 minutes), then a new code may be asked for. */
    waiting: {
      tags: ['waiting'],
      on: chart.waitingOn ?? {},
      after: { untilRetry: { target: chart.afterWait, actions: 'clearRetryAt' } },
    },
  } as const;
}

/** The tags the fragment's states carry. */
export type TextedCodeTag = 'textedCode' | 'busy' | 'verifying' | 'resent' | 'invalid' | 'wrongCode' | 'failed' | 'waiting';

/** The code's problems the code form shows (TextedCodeEntry's `invalid`, `wrongCode`, `failed`), from a chart's tags. */
export function textedCodeProblems(snapshot: { hasTag: (tag: TextedCodeTag) => boolean }) {
  return { invalid: snapshot.hasTag('invalid'), wrongCode: snapshot.hasTag('wrongCode'), failed: snapshot.hasTag('failed') };
}
