/**
 * Change the unlock code on Manage account (spec §2 /manage-account, §5 PIN and unlock code, §7
 * POST /set-unlock-code {unlockCode} with the access token; contract/account/types.ts).
 *
 * The new code and its confirmation are checked with the shared rules (machines/shared/newUnlockCode.ts),
 * then saved. The server's own refusal (400 {4, fieldErrors}) shows on the field; any other answer
 * is a failure to report. A call that ends without an answer goes back to editing with nothing said:
 * either the app has already shown the error modal (no statusCode), or the cardholder gave up
 * re-authenticating (the unlock or sign-in screen said why). The form stays on screen throughout, so
 * what was typed survives a session that expires while saving.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { SetUnlockCodeAnswer } from '../../contract/account/types.ts';
import { ValidationMessage } from '../../contract/rules.ts';
import { StatusCode } from '../../contract/shared/statusCodes.ts';
import { newUnlockCodeErrors, type NewUnlockCodeErrors, type NewUnlockCodes } from '../shared/newUnlockCode.ts';

export type ChangeUnlockCodeContext = { fieldErrors: NewUnlockCodeErrors };

export type ChangeUnlockCodeEvent = { type: 'user.submit' } & NewUnlockCodes;

const ruleMessages = new Set<string>(Object.values(ValidationMessage));

/** The server's finding on the code, when it is one the app can say (else the view's general refusal). */
const serverErrors = (answer: SetUnlockCodeAnswer | undefined): NewUnlockCodeErrors => {
  const unlockCode = answer?.fieldErrors?.unlockCode;
  return unlockCode !== undefined && ruleMessages.has(unlockCode) ? { unlockCode: unlockCode as ValidationMessage } : {};
};

/** What views ask the chart: `busy` while saving, and why the form is back (`invalid`, `mismatch`, `refused`, `failed`, `saved`). */
export type ChangeUnlockCodeTag = 'busy' | 'invalid' | 'mismatch' | 'refused' | 'failed' | 'saved';

export const changeUnlockCodeMachine = setup({
  types: {
    context: {} as ChangeUnlockCodeContext,
    events: {} as ChangeUnlockCodeEvent,

    tags: {} as ChangeUnlockCodeTag,
  },
  guards: {
    isCodeInvalid: ({ event }) => newUnlockCodeErrors(event).unlockCode !== undefined,
    isMismatch: ({ event }) => newUnlockCodeErrors(event).unlockCodeConfirmation !== undefined,
    isSaved: (_, answer: SetUnlockCodeAnswer | undefined) => answer?.statusCode === StatusCode.SUCCESS,
    /** 400 {4, fieldErrors}: the server refused this code (an obvious one): choose another. */
    isRefused: (_, answer: SetUnlockCodeAnswer | undefined) => answer?.statusCode === StatusCode.FAILED_VALIDATION,
  },
  actions: {
    showProblems: assign({ fieldErrors: ({ event }) => newUnlockCodeErrors(event) }),
    showServerProblems: assign((_, answer: SetUnlockCodeAnswer | undefined) => ({ fieldErrors: serverErrors(answer) })),
    clearProblems: assign({ fieldErrors: {} }),
    /** Supplied by the app: empty both fields, ready for another change. */
    clearForm: () => {},
  },
  actors: {
    setUnlockCode: fromPromise<SetUnlockCodeAnswer, { unlockCode: string }>(async () => ({ statusCode: StatusCode.UNEXPECTED_ERROR })),
  },
}).createMachine({
  id: 'changeUnlockCode',
  context: { fieldErrors: {} },
  initial: 'editing',
  states: {
    editing: {
      initial: 'idle',
      on: {
        'user.submit': [
          { guard: 'isCodeInvalid', target: '.invalid', actions: 'showProblems' },
          { guard: 'isMismatch', target: '.mismatch', actions: 'showProblems' },
          { target: 'saving', actions: 'clearProblems' },
        ],
      },
      states: {
        idle: {},
        /** Not 4 digits, or an obvious code (checkNewUnlockCode). */
        invalid: { tags: ['invalid'] },
        /** The confirmation differs. */
        mismatch: { tags: ['mismatch'] },
        /** 400 {4}: the server refused the code. */
        refused: { tags: ['refused'] },
        /** Any other answer (5, or 403 {3} during an unlock lockout). */
        failed: { tags: ['failed'] },
        /** Saved: the success notice shows over the emptied form, which can change the code again. */
        saved: { tags: ['saved'] },
      },
    },
    saving: {
      tags: ['busy'],
      invoke: {
        id: 'setUnlockCode',
        src: 'setUnlockCode',
        input: ({ event }) => ({ unlockCode: event.unlockCode }),
        onDone: [
          { guard: { type: 'isSaved', params: ({ event }) => event.output }, target: 'editing.saved', actions: 'clearForm' },
          {
            guard: { type: 'isRefused', params: ({ event }) => event.output },
            target: 'editing.refused',
            actions: { type: 'showServerProblems', params: ({ event }) => event.output },
          },
          { target: 'editing.failed' },
        ],
        // No statusCode (the error modal is open) or re-authentication abandoned: type on, nothing lost.
        onError: { target: 'editing' },
      },
    },
  },
});
