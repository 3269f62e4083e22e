/**
 * Reset the unlock code (spec §2 /reset-unlock-code/:step?, §4 auth and unlock attempts, §5 SSN and
 * unlock code, §7 /verify/ssn/logged-in-refresh-token and /reset-unlock-code with the refresh token;
 * contract/session/types.ts). Needed after an unlock lockout (sign-in answers mustResetUnlockCode).
 *
 * Step 1 the SSN → ssnToken (401 {4, attemptsLeft} no match; 201 the server's wait), step 2 a new
 * code and its confirmation → new tokens, stored like unlock does (an SSN check that expired meanwhile:
 * back to step 1, saying so), then a confirmation ("Your unlock code has been changed.") whose
 * Continue goes to the remembered route or home.
 * The SSN goes from the event straight to the call: it is never in context.
 */
import { assign, fromPromise } from 'xstate';
import { setup } from '../shared/setup.ts';
import type { ResetUnlockCodeAnswer } from '../../contract/session/types.ts';
import type { VerifySsnAnswer } from '../../contract/identity/types.ts';
import { digitsOf, type ValidationMessage } from '../../contract/rules.ts';
import { checkSsn } from '../../contract/identity/rules.ts';
import { StatusCode } from '../../contract/shared/statusCodes.ts';
import { newUnlockCodeErrors } from '../shared/newUnlockCode.ts';
import { untilRetry } from '../shared/serverWait.ts';
import { ssnCheckAssigners, ssnCheckGuards, ssnCheckStates, verifySsnOutput, type SsnCheckContext, type SsnCheckTag } from '../shared/ssnCheck.ts';

export type ResetUnlockCodeStep = 1 | 2;

export type ResetUnlockCodeContext = SsnCheckContext & {
  ssnToken: string | null;
  fieldErrors: Partial<Record<'ssn' | 'unlockCode' | 'unlockCodeConfirmation', ValidationMessage>>;
};

export type ResetUnlockCodeEvent =
  | { type: 'user.submitSsn'; ssn: string }
  | { type: 'user.submitCode'; unlockCode: string; unlockCodeConfirmation: string }
  | { type: 'user.goToStep'; step: number }
  | { type: 'user.continue' };

const codeProblems = (event: ResetUnlockCodeEvent): ResetUnlockCodeContext['fieldErrors'] =>
  event.type === 'user.submitCode' ? newUnlockCodeErrors(event) : {};

/**
 * What views ask the chart: the SSN step's tags, `ssnExpired` when the SSN check ran out before the new
 * code was saved, `refused` when the server refuses the new code, `reset` once it is saved.
 */
export type ResetUnlockCodeTag = SsnCheckTag | 'ssnExpired' | 'refused' | 'reset';

export const resetUnlockCodeMachine = setup({
  types: {
    context: {} as ResetUnlockCodeContext,
    events: {} as ResetUnlockCodeEvent,
    tags: {} as ResetUnlockCodeTag,
  },
  delays: {
    untilRetry,
  },
  guards: {
    ...ssnCheckGuards,
    isCodeValid: ({ event }) => Object.keys(codeProblems(event)).length === 0 && event.type === 'user.submitCode',
    isBackToSsn: ({ event }) => event.type === 'user.goToStep' && event.step === 1,
    isSsnVerified: (_, answer: VerifySsnAnswer | undefined) => answer?.statusCode === StatusCode.SUCCESS && Boolean(answer.ssnToken),
    isReset: (_, answer: ResetUnlockCodeAnswer | undefined) =>
      answer?.statusCode === StatusCode.SUCCESS && Boolean(answer.access && answer.refresh),
    /** 400 `{4, fieldErrors: {ssnToken}}`: the SSN check expired (10 minutes) or was spent; the SSN is needed again. */
    isSsnCheckLost: (_, answer: ResetUnlockCodeAnswer | undefined) =>
      answer?.statusCode === StatusCode.FAILED_VALIDATION && Boolean(answer.fieldErrors?.ssnToken),
    /** The server refused the new code (an obvious one): choose again. */
    isCodeRefused: (_, answer: ResetUnlockCodeAnswer | undefined) =>
      answer?.statusCode === StatusCode.FAILED_VALIDATION || answer?.statusCode === StatusCode.INVALID_PARAMETERS,
  },
  actions: {
    showSsnError: assign(({ event }) => ({ fieldErrors: event.type === 'user.submitSsn' ? { ssn: checkSsn(event.ssn) ?? undefined } : {} })),
    showCodeErrors: assign(({ event }) => ({ fieldErrors: codeProblems(event) })),
    clearProblems: assign({ fieldErrors: {}, attemptsLeft: null }),
    storeSsnToken: assign((_, answer: VerifySsnAnswer | undefined) => ({ ssnToken: answer?.ssnToken ?? null, attemptsLeft: null })),
    forgetSsnToken: assign({ ssnToken: null }),
    countAttempts: assign(ssnCheckAssigners.countAttempts),
    storeRetryAt: assign(ssnCheckAssigners.storeRetryAt),
    clearRetryAt: assign(ssnCheckAssigners.clearRetryAt),
    /** Supplied by the app: store access, refresh and isInternal in the session (spec §4). */
    storeSession: (_, _answer: ResetUnlockCodeAnswer | undefined) => {},
    /** Supplied by the app: continue to the remembered route or home. */
    continueToApp: () => {},
  },
  actors: {
    verifySsn: fromPromise<VerifySsnAnswer, { ssn: string }>(async () => ({ statusCode: StatusCode.UNEXPECTED_ERROR })),
    resetUnlockCode: fromPromise<ResetUnlockCodeAnswer, { ssnToken: string; unlockCode: string }>(async () => ({
      statusCode: StatusCode.UNEXPECTED_ERROR,
    })),
  },
}).createMachine({
  id: 'resetUnlockCode',
  context: { ssnToken: null, fieldErrors: {}, attemptsLeft: null, retryAt: null },
  initial: 'ssn',
  states: {
    /** Step 1: "Verify your identity" (machines/shared/ssnCheck.ts). The SSN goes from the event to the call. */
    ssn: {
      entry: 'forgetSsnToken',
      initial: 'editing',
      states: ssnCheckStates({
        submitted: 'clearProblems',
        input: ({ event }: { event: ResetUnlockCodeEvent }) => ({ ssn: event.type === 'user.submitSsn' ? digitsOf(event.ssn) : '' }),
        verified: { target: '#resetUnlockCode.code', actions: { type: 'storeSsnToken', params: verifySsnOutput } },
        back: { ssnExpired: { tags: ['ssnExpired'] } },
      }),
    },
    /** Step 2: a new unlock code, confirmed. */
    code: {
      initial: 'editing',
      states: {
        editing: {
          initial: 'idle',
          on: {
            // Back to step 1 (the route's step param); not while the new code is being saved.
            'user.goToStep': { guard: 'isBackToSsn', target: '#resetUnlockCode.ssn' },
            'user.submitCode': [
              { guard: 'isCodeValid', target: 'resetting', actions: 'clearProblems' },
              { target: '.invalid', actions: 'showCodeErrors' },
            ],
          },
          states: {
            idle: {},
            invalid: { tags: ['invalid'] },
            refused: { tags: ['refused'] },
            failed: { tags: ['failed'] },
          },
        },
        resetting: {
          tags: ['busy'],
          invoke: {
            id: 'resetUnlockCode',
            src: 'resetUnlockCode',
            input: ({ context, event }) => ({
              ssnToken: context.ssnToken ?? '',
              unlockCode: event.type === 'user.submitCode' ? event.unlockCode : '',
            }),
            onDone: [
              {
                guard: { type: 'isReset', params: ({ event }) => event.output },
                target: '#resetUnlockCode.reset',
                actions: { type: 'storeSession', params: ({ event }) => event.output },
              },
              { guard: { type: 'isSsnCheckLost', params: ({ event }) => event.output }, target: '#resetUnlockCode.ssn.editing.ssnExpired' },
              { guard: { type: 'isCodeRefused', params: ({ event }) => event.output }, target: 'editing.refused' },
              { target: 'editing.failed' },
            ],
            onError: { target: 'editing.failed' },
          },
        },
      },
    },
    /** The new code is saved and the session stored: the confirmation, until the cardholder continues. */
    reset: {
      tags: ['reset'],
      on: { 'user.continue': { target: 'continued', actions: 'continueToApp' } },
    },
    /** The app moves on; the screen stays busy until it does. */
    continued: { type: 'final', tags: ['busy'] },
  },
});

/** The cardholder has moved on: the route's step param no longer follows the chart. */
export const isUnlockCodeReset = (snapshot: { status: string }) => snapshot.status === 'done';

export function stepOfResetUnlockCode(snapshot: { matches: (value: never) => boolean }): ResetUnlockCodeStep {
  const at = (value: string) => snapshot.matches(value as never);
  return at('code') || at('reset') ? 2 : 1;
}
