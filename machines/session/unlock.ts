/**
 * Unlock: the 4-digit unlock code exchanges the refresh token for new tokens (spec §4 auth,
 * §7 POST /refresh-tokens, 401 expected). Wrong codes show the attempts left; when none are left,
 * or the refresh token is no longer valid, the user must sign in again.
 */
import { assign, fromPromise } from 'xstate';
import { setup } from '../shared/setup.ts';
import type { RefreshTokensAnswer } from '../../contract/session/types.ts';
import { StatusCode } from '../../contract/shared/statusCodes.ts';
import { fieldErrors, refreshTokensChecks, type ValidationMessage } from '../../contract/rules.ts';

export type UnlockContext = {
  attemptsLeft: number | null;
  fieldError: ValidationMessage | null;
};

export type UnlockEvent = { type: 'user.submit'; unlockCode: string } | { type: 'user.useSignIn' };

/** What views ask the chart: `busy` while the code is checked (and once unlocked), `invalid`, `wrongCode`, `failed`. */
export type UnlockTag = 'busy' | 'invalid' | 'wrongCode' | 'failed';

export const unlockMachine = setup({
  types: {
    context: {} as UnlockContext,
    events: {} as UnlockEvent,

    tags: {} as UnlockTag,
  },
  guards: {
    isCodeWellFormed: ({ event }) =>
      event.type === 'user.submit' && !fieldErrors(refreshTokensChecks, { unlockCode: event.unlockCode }).unlockCode,
    isUnlocked: (_, answer: RefreshTokensAnswer) =>
      answer.statusCode === StatusCode.SUCCESS && Boolean(answer.access && answer.refresh),
    isWrongCodeWithAttemptsLeft: (_, answer: RefreshTokensAnswer) =>
      answer.statusCode === StatusCode.INVALID_REFRESH_CREDENTIALS && (answer.attemptsLeft ?? 0) > 0,
    isSignInRequired: (_, answer: RefreshTokensAnswer) =>
      answer.statusCode === StatusCode.SIGN_IN_REQUIRED || answer.statusCode === StatusCode.INVALID_REFRESH_CREDENTIALS,
  },
  actions: {
    showFieldError: assign({
      fieldError: ({ event }) =>
        event.type === 'user.submit'
          ? (fieldErrors(refreshTokensChecks, { unlockCode: event.unlockCode }).unlockCode ?? null)
          : null,
    }),
    clearFieldError: assign({ fieldError: null }),
    countAttempts: assign({ attemptsLeft: (_, answer: RefreshTokensAnswer) => answer.attemptsLeft ?? null }),
    /** Supplied by the app: store the new tokens in the session. */
    storeSession: (_, _answer: RefreshTokensAnswer) => {},
    /** Supplied by the app: continue to the remembered route or home. */
    continueToApp: () => {},
    /**
     * Supplied by the app: end the local session and go to sign-in, keeping the remembered route;
     * `unlockCodeLocked` when the last wrong code locked the unlock code (sign-in says so).
     */
    requireSignIn: (_, _params: { unlockCodeLocked: boolean }) => {},
  },
  actors: {
    refreshTokens: fromPromise<RefreshTokensAnswer, { unlockCode: string }>(async () => ({
      statusCode: StatusCode.UNEXPECTED_ERROR,
    })),
  },
}).createMachine({
  id: 'unlock',
  context: { attemptsLeft: null, fieldError: null },
  initial: 'editing',
  states: {
    editing: {
      initial: 'idle',
      on: {
        'user.submit': [
          { guard: 'isCodeWellFormed', target: 'submitting', actions: 'clearFieldError' },
          { target: '.invalid', actions: 'showFieldError' },
        ],
        'user.useSignIn': { target: 'signInRequired', actions: { type: 'requireSignIn', params: { unlockCodeLocked: false } } },
      },
      states: {
        idle: {},
        invalid: { tags: ['invalid'] },
        /** INVALID_REFRESH_CREDENTIALS with attempts left. */
        wrongCode: { tags: ['wrongCode'] },
        failed: { tags: ['failed'] },
      },
    },
    submitting: {
      tags: ['busy'],
      invoke: {
        id: 'refreshTokens',
        src: 'refreshTokens',
        input: ({ event }) => ({ unlockCode: event.type === 'user.submit' ? event.unlockCode : '' }),
        onDone: [
          {
            guard: { type: 'isUnlocked', params: ({ event }) => event.output },
            target: 'unlocked',
            actions: [{ type: 'storeSession', params: ({ event }) => event.output }, 'continueToApp'],
          },
          {
            guard: { type: 'isWrongCodeWithAttemptsLeft', params: ({ event }) => event.output },
            target: 'editing.wrongCode',
            actions: { type: 'countAttempts', params: ({ event }) => event.output },
          },
          {
            guard: { type: 'isSignInRequired', params: ({ event }) => event.output },
            target: 'signInRequired',
            // The wrong code with no attempt left (101: the unlock code is locked, sign-in says so), or
            // SIGN_IN_REQUIRED (the session ended on the server).
            actions: { type: 'requireSignIn', params: ({ event }) => ({ unlockCodeLocked: event.output.statusCode === StatusCode.INVALID_REFRESH_CREDENTIALS }) },
          },
          { target: 'editing.failed' },
        ],
        onError: { target: 'editing.failed' },
      },
    },
    /** Unlocked: the app moves on; the form stays busy until it does. */
    unlocked: { type: 'final', tags: ['busy'] },
    /** Locked out or the session ended on the server: sign in with the password. */
    signInRequired: { type: 'final' },
  },
});
