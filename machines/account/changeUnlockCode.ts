/**
 * Change the unlock code on Manage account (spec §2 /manage-account, §4 unlock attempts, §5 PIN and
 * unlock code, §7 POST /set-unlock-code {currentUnlockCode, unlockCode} with the access token;
 * contract/account/types.ts).
 *
 * The current code is asked first, so someone holding an unlocked phone cannot silently replace it.
 * It is checked with the unlock screen's rule, the new code and its confirmation with the shared rules
 * (machines/shared/newUnlockCode.ts), then saved. A wrong current code (401 {101, attemptsLeft})
 * counts against the same attempts as the unlock screen and says how many are left on its field; the
 * last one ends every session on the server, so the app asks for a sign-in (then the SSN reset of the
 * code). The server's refusal of a code (400 {4, fieldErrors}) shows on the field; any other answer
 * is a failure to report. A call that ends without an answer goes back to editing with nothing said:
 * either the app has already shown the error modal (no statusCode), or the cardholder gave up
 * re-authenticating (the unlock or sign-in screen said why). The form stays on screen throughout, so
 * what was typed survives a session that expires while saving, and Save sends it again safely: the
 * server answers a change it already made as done, rather than count its old current code as wrong
 * (server/features/account/index.ts).
 */
import { assign, fromPromise } from 'xstate';
import { setup } from '../shared/setup.ts';
import type { SetUnlockCodeAnswer, SetUnlockCodeRequest } from '../../contract/account/types.ts';
import { checkChangedUnlockCode, currentUnlockCodeChecks, fieldErrors, ValidationMessage } from '../../contract/rules.ts';
import { StatusCode } from '../../contract/shared/statusCodes.ts';
import { newUnlockCodeErrors, type NewUnlockCodes } from '../shared/newUnlockCode.ts';

/** The form: the current code, then the new one twice. */
export type ChangeUnlockCodeForm = { currentUnlockCode: string } & NewUnlockCodes;

export type ChangeUnlockCodeErrors = Partial<Record<keyof ChangeUnlockCodeForm, ValidationMessage>>;

export type ChangeUnlockCodeContext = {
  fieldErrors: ChangeUnlockCodeErrors;
  /** After a wrong current code: the unlock attempts left before the lockout. */
  attemptsLeft: number | null;
};

export type ChangeUnlockCodeEvent = { type: 'user.submit' } & ChangeUnlockCodeForm;

/**
 * Every field's problem at once: the current code's (unlock rule), and the new code's or else its
 * confirmation's. Two good codes that are the same are the new code's problem: nothing would change.
 */
const formErrors = (form: ChangeUnlockCodeForm): ChangeUnlockCodeErrors => {
  const errors = { ...fieldErrors(currentUnlockCodeChecks, { currentUnlockCode: form.currentUnlockCode }), ...newUnlockCodeErrors(form) };
  if (errors.currentUnlockCode || errors.unlockCode) return errors;
  const unchanged = checkChangedUnlockCode(form.currentUnlockCode, form.unlockCode);
  return unchanged ? { unlockCode: unchanged } : errors;
};

const ruleMessages = new Set<string>(Object.values(ValidationMessage));
const ruleMessage = (key: string | undefined) => (key !== undefined && ruleMessages.has(key) ? (key as ValidationMessage) : undefined);

/** The server's findings on the codes, when they are ones the app can say (else the view's general refusal). */
const serverErrors = (answer: SetUnlockCodeAnswer | undefined): ChangeUnlockCodeErrors => {
  const found: ChangeUnlockCodeErrors = {
    currentUnlockCode: ruleMessage(answer?.fieldErrors?.currentUnlockCode),
    unlockCode: ruleMessage(answer?.fieldErrors?.unlockCode),
  };
  return Object.fromEntries(Object.entries(found).filter(([, message]) => message !== undefined));
};

/**
 * What views ask the chart: `busy` while saving, and why the form is back (`invalid`, `mismatch`,
 * `wrongCurrentCode`, `refused`, `failed`, `saved`); `signInRequired` once the attempts ran out.
 */
export type ChangeUnlockCodeTag = 'busy' | 'invalid' | 'mismatch' | 'wrongCurrentCode' | 'refused' | 'failed' | 'saved' | 'signInRequired';

export const changeUnlockCodeMachine = setup({
  types: {
    context: {} as ChangeUnlockCodeContext,
    events: {} as ChangeUnlockCodeEvent,

    tags: {} as ChangeUnlockCodeTag,
  },
  guards: {
    /** The current code is not 4 digits, or the new one breaks a rule (checkNewUnlockCode) or is the current one. */
    isCodeInvalid: ({ event }) => {
      const errors = formErrors(event);
      return errors.currentUnlockCode !== undefined || errors.unlockCode !== undefined;
    },
    isMismatch: ({ event }) => formErrors(event).unlockCodeConfirmation !== undefined,
    isSaved: (_, answer: SetUnlockCodeAnswer | undefined) => answer?.statusCode === StatusCode.SUCCESS,
    /** 401 {101, attemptsLeft > 0}: the current code is wrong; it counted as a wrong unlock code. */
    isWrongCurrentCode: (_, answer: SetUnlockCodeAnswer | undefined) =>
      answer?.statusCode === StatusCode.INVALID_REFRESH_CREDENTIALS && (answer.attemptsLeft ?? 0) > 0,
    /** 401 {101} with no attempts left: that was the last one, and every session has ended on the server. */
    isLockedOut: (_, answer: SetUnlockCodeAnswer | undefined) => answer?.statusCode === StatusCode.INVALID_REFRESH_CREDENTIALS,
    /** 400 {4, fieldErrors}: the server refused this code (an obvious one): choose another. */
    isRefused: (_, answer: SetUnlockCodeAnswer | undefined) => answer?.statusCode === StatusCode.FAILED_VALIDATION,
  },
  actions: {
    showProblems: assign({ fieldErrors: ({ event }) => formErrors(event) }),
    showServerProblems: assign((_, answer: SetUnlockCodeAnswer | undefined) => ({ fieldErrors: serverErrors(answer) })),
    clearProblems: assign({ fieldErrors: {}, attemptsLeft: null }),
    countAttempts: assign((_, answer: SetUnlockCodeAnswer | undefined) => ({ attemptsLeft: answer?.attemptsLeft ?? null })),
    /** Supplied by the app: empty the fields, ready for another change. */
    clearForm: () => {},
    /** Supplied by the app: the local session ends too, and the cardholder is asked to sign in (saying the unlock code was locked). */
    requireSignIn: () => {},
  },
  actors: {
    setUnlockCode: fromPromise<SetUnlockCodeAnswer, SetUnlockCodeRequest>(async () => ({ statusCode: StatusCode.UNEXPECTED_ERROR })),
  },
}).createMachine({
  id: 'changeUnlockCode',
  context: { fieldErrors: {}, attemptsLeft: null },
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
        /** The current code is not 4 digits; or the new one is not, is an obvious code (checkNewUnlockCode) or is the current one. */
        invalid: { tags: ['invalid'] },
        /** The confirmation differs. */
        mismatch: { tags: ['mismatch'] },
        /** 401 {101, attemptsLeft}: the current code is wrong; the attempts left show on its field. */
        wrongCurrentCode: { tags: ['wrongCurrentCode'] },
        /** 400 {4}: the server refused the code. */
        refused: { tags: ['refused'] },
        /** Any other answer (5 …). */
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
        input: ({ event }) => ({ currentUnlockCode: event.currentUnlockCode, unlockCode: event.unlockCode }),
        onDone: [
          { guard: { type: 'isSaved', params: ({ event }) => event.output }, target: 'editing.saved', actions: 'clearForm' },
          {
            guard: { type: 'isWrongCurrentCode', params: ({ event }) => event.output },
            target: 'editing.wrongCurrentCode',
            actions: { type: 'countAttempts', params: ({ event }) => event.output },
          },
          { guard: { type: 'isLockedOut', params: ({ event }) => event.output }, target: 'signInRequired', actions: 'requireSignIn' },
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
    /**
     * The last attempt was wrong: the server has ended every session (a lockout that only the SSN
     * reset of the unlock code ends, after a sign-in). The auth modal asks for the sign-in.
     */
    signInRequired: { type: 'final', tags: ['signInRequired'] },
  },
});
