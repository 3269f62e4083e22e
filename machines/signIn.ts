/**
 * Sign in with email and password (spec §2 /signin, §7 POST /sign-in, §8 sign-in codes).
 * MFA (statusCode 105) arrives with the auth issue; until then it is shown as unexpected.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { Credentials, SignInAnswer } from '../contract/api.ts';
import { StatusCode } from '../contract/statusCodes.ts';
import { fieldErrors, signInChecks, type ValidationMessage } from '../contract/rules.ts';

export type SignInContext = {
  email: string;
  fieldErrors: Partial<Record<keyof Credentials, ValidationMessage>>;
};

export type SignInEvent = { type: 'user.submit'; email: string; password: string };

export const signInMachine = setup({
  types: {
    context: {} as SignInContext,
    events: {} as SignInEvent,
  },
  guards: {
    isFormValid: ({ event }) => Object.keys(fieldErrors(signInChecks, formOf(event))).length === 0,
    isSignedIn: (_, answer: SignInAnswer) =>
      answer.statusCode === StatusCode.SUCCESS && Boolean(answer.access && answer.refresh),
    isRejected: (_, answer: SignInAnswer) => answer.statusCode === StatusCode.INVALID_CREDENTIALS,
  },
  actions: {
    rememberEmail: assign({ email: ({ event }) => event.email.trim(), fieldErrors: {} }),
    showFieldErrors: assign({
      email: ({ event }) => event.email,
      fieldErrors: ({ event }) => fieldErrors(signInChecks, formOf(event)),
    }),
    /** Supplied by the app: store the tokens in the session. */
    storeSession: (_, _answer: SignInAnswer) => {},
    /** Supplied by the app: continue to the remembered route or home. */
    continueToApp: () => {},
  },
  actors: {
    signIn: fromPromise<SignInAnswer, Credentials>(async () => ({ statusCode: StatusCode.UNEXPECTED_ERROR })),
  },
}).createMachine({
  id: 'signIn',
  context: { email: '', fieldErrors: {} },
  initial: 'editing',
  states: {
    editing: {
      initial: 'idle',
      on: {
        'user.submit': [
          { guard: 'isFormValid', target: 'submitting', actions: 'rememberEmail' },
          { target: '.invalid', actions: 'showFieldErrors' },
        ],
      },
      states: {
        idle: {},
        invalid: {},
        /** INVALID_CREDENTIALS: wrong email or password. */
        rejected: {},
        /** No answer or an unexpected one. */
        failed: {},
      },
    },
    submitting: {
      invoke: {
        id: 'signIn',
        src: 'signIn',
        input: ({ event }) => (event.type === 'user.submit' ? formOf(event) : { email: '', password: '' }),
        onDone: [
          {
            guard: { type: 'isSignedIn', params: ({ event }) => event.output },
            target: 'signedIn',
            actions: [{ type: 'storeSession', params: ({ event }) => event.output }, 'continueToApp'],
          },
          { guard: { type: 'isRejected', params: ({ event }) => event.output }, target: 'editing.rejected' },
          { target: 'editing.failed' },
        ],
        onError: { target: 'editing.failed' },
      },
    },
    signedIn: { type: 'final' },
  },
});

/** Submit normalisation: the email is trimmed, the password sent as typed. */
function formOf(event: SignInEvent): Credentials {
  return { email: event.email.trim(), password: event.password };
}
