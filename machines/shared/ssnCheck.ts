/**
 * "Verify your identity": the SSN check both resets ask for (reset password step 2, reset unlock
 * code step 1; spec §4 attempts, §5 SSN, §7 /verify/ssn and /verify/ssn/logged-in-refresh-token).
 * The SSN must pass the shared rule (contract/rules.ts) before it is sent; the server answers SUCCESS
 * (with an ssnToken), 401 {4, attemptsLeft} when it does not match the account, or 201 with its wait
 * after too many tries (machines/shared/serverWait.ts).
 *
 * What both charts share is here: guards (spread into the chart's `setup`), what its actions assign,
 * and the step's states (`ssnCheckStates`). Each chart keeps what differs: what the call is sent, what
 * a verified SSN is (`isSsnVerified`) and leads to, how it shows the rule's problem (`showSsnError`),
 * and whether it keeps the SSN it sent.
 */
import type { EventObject } from 'xstate';
import type { VerifySsnAnswer } from '../../contract/identity/types.ts';
import { checkSsn } from '../../contract/identity/rules.ts';
import { StatusCode } from '../../contract/shared/statusCodes.ts';
import { retryAtOf } from './serverWait.ts';

/** What the check keeps in a chart's context: the tries left after a mismatch, the end of the server's wait. */
export type SsnCheckContext = { attemptsLeft: number | null; retryAt: number | null };

/** The event that submits the typed SSN. */
type SsnSubmitted = { type: 'user.submitSsn'; ssn: string };

const isSsnSubmitted = (event: EventObject): event is SsnSubmitted => event.type === 'user.submitSsn';

/** The call's answer, as the guards and actions of its `onDone` take it. */
export const verifySsnOutput = ({ event }: { event: { output: VerifySsnAnswer } }) => event.output;

export const ssnCheckGuards = {
  isSsnValid: ({ event }: { event: EventObject }) => isSsnSubmitted(event) && checkSsn(event.ssn) === null,
  isSsnMismatch: (_: unknown, answer: VerifySsnAnswer | undefined) => answer?.statusCode === StatusCode.FAILED_VALIDATION,
  isTooMany: (_: unknown, answer: VerifySsnAnswer | undefined) => answer?.statusCode === StatusCode.INVALID_MFA_LIMIT,
};

/** What the check's actions assign (each chart wraps them in `assign`: `countAttempts: assign(ssnCheckAssigners.countAttempts)`). */
export const ssnCheckAssigners = {
  countAttempts: (_: unknown, answer: VerifySsnAnswer | undefined) => ({ attemptsLeft: answer?.attemptsLeft ?? null }),
  storeRetryAt: (_: unknown, answer: VerifySsnAnswer | undefined) => ({ retryAt: retryAtOf(answer) }),
  clearRetryAt: () => ({ retryAt: null }),
};

/** The tags the step's states carry: `busy` while the SSN is checked, `invalid`, `mismatch` and `failed` on why it is back, `waiting`. */
export type SsnCheckTag = 'busy' | 'invalid' | 'mismatch' | 'failed' | 'waiting';

/** What the SSN step shows (SsnCheckStep's `busy`, `waiting`, `mismatch`, `failed`, and whether to show the rule's problem), from the chart's tags. */
export function ssnCheckShows(snapshot: { hasTag: (tag: SsnCheckTag) => boolean }) {
  return {
    busy: snapshot.hasTag('busy'),
    waiting: snapshot.hasTag('waiting'),
    invalid: snapshot.hasTag('invalid'),
    mismatch: snapshot.hasTag('mismatch'),
    failed: snapshot.hasTag('failed'),
  };
}

/**
 * The step's states: `editing` sends a valid SSN to `verifying` (the call `verifySsn`); its substates
 * say why it is back (invalid: the rule refused the SSN; mismatch: 401 {4, attemptsLeft}; failed: any
 * other answer; and the chart's own, `back`). `waiting` is the server's wait after too many tries (201),
 * then the SSN may be tried again.
 */
export function ssnCheckStates<
  const TOn extends object,
  const TSubmitted extends string,
  const TInput,
  const TVerified extends object,
  const TNotVerified extends readonly string[] = [],
  const TProofLost extends readonly object[] = [],
  const TBack extends object = object,
>(chart: {
  /** `editing`'s other transitions (back to an earlier step): never while a call is under way. */
  on?: TOn;
  /** The action that takes a valid SSN to the call (clearing the last problems, keeping the SSN if the chart needs it). */
  submitted: TSubmitted;
  /** What the call is sent. */
  input: TInput;
  /** Where a verified SSN leads (the next step), and what it stores. */
  verified: TVerified;
  /** What else a chart does when the SSN is not verified (forgets an SSN it kept). */
  notVerified?: TNotVerified;
  /** Answers the chart handles before the SSN's own (the password reset: its phone's proof expired). */
  proofLost?: TProofLost;
  /** `editing`'s other substates: why the chart's own later step sent the cardholder back here. */
  back?: TBack;
}) {
  const notVerified = chart.notVerified ?? ([] as const);
  const proofLost = chart.proofLost ?? ([] as const);
  return {
    editing: {
      initial: 'idle',
      on: {
        ...chart.on,
        'user.submitSsn': [
          { guard: 'isSsnValid', target: 'verifying', actions: chart.submitted },
          { target: '.invalid', actions: 'showSsnError' },
        ],
      },
      states: {
        idle: {},
        invalid: { tags: ['invalid'] },
        mismatch: { tags: ['mismatch'] },
        failed: { tags: ['failed'] },
        ...(chart.back as TBack),
      },
    },
    verifying: {
      tags: ['busy'],
      invoke: {
        id: 'verifySsn',
        src: 'verifySsn',
        input: chart.input,
        onDone: [
          ...proofLost,
          { guard: { type: 'isSsnVerified', params: verifySsnOutput }, ...chart.verified },
          {
            guard: { type: 'isSsnMismatch', params: verifySsnOutput },
            target: 'editing.mismatch',
            actions: [{ type: 'countAttempts', params: verifySsnOutput }, ...notVerified],
          },
          {
            guard: { type: 'isTooMany', params: verifySsnOutput },
            target: 'waiting',
            actions: [{ type: 'storeRetryAt', params: verifySsnOutput }, ...notVerified],
          },
          { target: 'editing.failed', actions: notVerified },
        ],
        onError: { target: 'editing.failed', actions: notVerified },
      },
    },
    waiting: {
      tags: ['waiting'],
      after: { untilRetry: { target: 'editing', actions: 'clearRetryAt' } },
    },
  } as const;
}
