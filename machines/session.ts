/**
 * The app-level session chart (spec §3 core state, §4 auth). Holds the tokens and device ids, and
 * the shared UI flags: error modal, snackbar and why authentication was asked for again.
 * Navigation and the sign-out call are declared here and supplied by the app with `.provide()`.
 */
import { assign, fromPromise, raise, setup } from 'xstate';
import type { RegistrationDraft } from './registrationDraft.ts';

export type Locale = 'en' | 'es';
export type AuthReason = 'expired' | 'signInAgain';
/** Snackbar messages are codes; views translate them. */
export type SnackbarMessage = 'signedOut' | 'accountNumberCopied' | 'copyFailed';

/**
 * The refresh token after a denied or CIP-taken registration (spec §4). It opens nothing: every
 * place that treats a refresh token as a session treats the marker as none (`isSessionToken`), and
 * /register shows the failure screen while it is set. A sign-in replaces it.
 */
export const failedRegistrationMarker = 'registration-failed';

/** A refresh token that stands for a session (not null, not the failed-registration marker). */
export const isSessionToken = (refreshToken: string | null): refreshToken is string =>
  refreshToken !== null && refreshToken !== failedRegistrationMarker;

export type SessionContext = {
  accessToken: string | null;
  refreshToken: string | null;
  fingerprint: string;
  deviceUUID: string;
  isInternal: boolean;
  ebtAccountId: string | null;
  locale: Locale;
  /** Registration typed so far (never the SSN or unlock code), kept across reloads; null when none. */
  registrationDraft: RegistrationDraft | null;
  snackbarMessage: SnackbarMessage | null;
  authReason: AuthReason | null;
};

export type SessionInput = Pick<
  SessionContext,
  'accessToken' | 'refreshToken' | 'fingerprint' | 'deviceUUID' | 'isInternal' | 'ebtAccountId' | 'locale' | 'registrationDraft'
>;

export type SessionTokens = { access: string; refresh: string; isInternal: boolean };

export type SessionEvent =
  | ({ type: 'session.signedIn' } & SessionTokens)
  | { type: 'session.refreshRequired' }
  | { type: 'session.signInRequired' }
  | { type: 'session.registrationFailed' }
  | { type: 'registration.draftChanged'; draft: RegistrationDraft | null }
  | { type: 'user.signOut' }
  | { type: 'user.changeLocale'; locale: Locale }
  | { type: 'errorModal.open' }
  | { type: 'user.closeErrorModal' }
  | { type: 'snackbar.show'; message: SnackbarMessage }
  | { type: 'user.dismissSnackbar' };

export const snackbarTimeoutMs = 5000;

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as SessionInput,
  },
  guards: {
    hasAccessToken: ({ context }) => context.accessToken !== null && context.refreshToken !== failedRegistrationMarker,
    hasRefreshToken: ({ context }) => isSessionToken(context.refreshToken),
  },
  actions: {
    storeTokens: assign(({ event }) => {
      if (event.type !== 'session.signedIn') return {};
      return { accessToken: event.access, refreshToken: event.refresh, isInternal: event.isInternal, authReason: null };
    }),
    dropAccessToken: assign({ accessToken: null, authReason: 'expired' as AuthReason }),
    dropTokens: assign({ accessToken: null, refreshToken: null, isInternal: false, authReason: 'signInAgain' as AuthReason }),
    clearSession: assign({ accessToken: null, refreshToken: null, isInternal: false, authReason: null, ebtAccountId: null }),
    markRegistrationFailed: assign({
      accessToken: null,
      refreshToken: failedRegistrationMarker,
      isInternal: false,
      authReason: null,
    }),
    setRegistrationDraft: assign({
      registrationDraft: ({ event }) => (event.type === 'registration.draftChanged' ? event.draft : null),
    }),
    setLocale: assign({ locale: ({ event }) => (event.type === 'user.changeLocale' ? event.locale : 'en') }),
    setSnackbar: assign({ snackbarMessage: ({ event }) => (event.type === 'snackbar.show' ? event.message : null) }),
    clearSnackbar: assign({ snackbarMessage: null }),
    showSignedOut: raise({ type: 'snackbar.show', message: 'signedOut' } as const),
    /** Supplied by the app: replace the route with unlock or sign-in, remembering where the user was. */
    openAuth: () => {},
    /** Supplied by the app: go to sign-in after signing out. */
    goToSignIn: () => {},
  },
  actors: {
    signOut: fromPromise<void, { refreshToken: string | null }>(async () => {}),
  },
}).createMachine({
  id: 'session',
  type: 'parallel',
  context: ({ input }) => ({ ...input, snackbarMessage: null, authReason: null }),
  on: {
    'user.changeLocale': { actions: 'setLocale' },
    'registration.draftChanged': { actions: 'setRegistrationDraft' },
  },
  states: {
    auth: {
      initial: 'restoring',
      on: {
        'session.signedIn': { target: '.active', actions: 'storeTokens' },
        'session.registrationFailed': { target: '.signedOut', actions: 'markRegistrationFailed' },
      },
      states: {
        restoring: {
          always: [
            { guard: 'hasAccessToken', target: 'active' },
            { guard: 'hasRefreshToken', target: 'locked' },
            { target: 'signedOut' },
          ],
        },
        signedOut: {},
        /** A refresh token but no usable access token: the unlock code opens the session again. */
        locked: {
          on: {
            'session.signInRequired': { target: 'signedOut', actions: ['dropTokens', 'openAuth'] },
            'user.signOut': 'signingOut',
          },
        },
        active: {
          on: {
            'session.refreshRequired': { target: 'locked', actions: ['dropAccessToken', 'openAuth'] },
            'session.signInRequired': { target: 'signedOut', actions: ['dropTokens', 'openAuth'] },
            'user.signOut': 'signingOut',
          },
        },
        /** The server revokes the session; locally it ends whatever the server answers. */
        signingOut: {
          invoke: {
            id: 'signOut',
            src: 'signOut',
            input: ({ context }) => ({ refreshToken: context.refreshToken }),
            onDone: { target: 'signedOut', actions: ['clearSession', 'showSignedOut', 'goToSignIn'] },
            onError: { target: 'signedOut', actions: ['clearSession', 'showSignedOut', 'goToSignIn'] },
          },
        },
      },
    },
    errorModal: {
      initial: 'closed',
      states: {
        closed: { on: { 'errorModal.open': 'open' } },
        open: { on: { 'user.closeErrorModal': 'closed' } },
      },
    },
    snackbar: {
      initial: 'hidden',
      states: {
        hidden: { on: { 'snackbar.show': { target: 'visible', actions: 'setSnackbar' } } },
        visible: {
          after: { [snackbarTimeoutMs]: { target: 'hidden', actions: 'clearSnackbar' } },
          on: {
            'snackbar.show': { target: 'visible', reenter: true, actions: 'setSnackbar' },
            'user.dismissSnackbar': { target: 'hidden', actions: 'clearSnackbar' },
          },
        },
      },
    },
  },
});
