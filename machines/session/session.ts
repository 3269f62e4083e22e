/**
 * The app-level session chart (spec §3 core state, §4 auth). Holds the tokens and device ids, and
 * the shared UI flags: error modal, snackbar, auth modal and why authentication was asked for again.
 * Navigation and the sign-out call are declared here and supplied by the app with `.provide()`.
 *
 * The auth modal (spec §4 auth): when a call made during an active session answers REFRESH_REQUIRED
 * or SIGN_IN_REQUIRED, the modal asks for the unlock code (or a sign-in) over the screen the user was
 * on, which stays mounted, so whatever they typed stays; the route shows /unlock or /signin meanwhile.
 * Signing in again as the same account resumes that screen (and the calls waiting on it); another
 * account signing in, signing out, or navigating away gives the interrupted work up.
 */
import { assign, emit, fromPromise, not, raise, spawnChild, stateIn } from 'xstate';
import { setup } from '../shared/setup.ts';
import { accessTokenClaims } from './accessToken.ts';
import type { SessionTokens } from '../../contract/shared/answers.ts';
import type { Locale } from '../../contract/shared/locale.ts';
// The one allowed reach across machine features: the session keeps registration's draft as identity
// shapes it (a type only, so no chart code crosses), so what was typed survives a reload.
// eslint-disable-next-line no-restricted-imports
import type { RegistrationDraft } from '../identity/registrationDraft.ts';

/** Why the unlock or sign-in screen is shown: the access token expired, the session ended, or the unlock code was locked by wrong tries. */
export type AuthReason = 'expired' | 'signInAgain' | 'unlockCodeLocked';
/** Snackbar messages are codes; views translate them. */
export type SnackbarMessage = 'signedOut' | 'accountNumberCopied' | 'copyFailed' | 'pinSet';

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
  /** Registration typed so far (never the SSN, the unlock code or a token), kept across reloads; null when none. */
  registrationDraft: RegistrationDraft | null;
  snackbarMessage: SnackbarMessage | null;
  authReason: AuthReason | null;
  /** What the auth modal interrupted: where the user was and whose screen it was. */
  interruption: Interruption | null;
  /** Bumped when another account signs in over interrupted work: the screens start over. */
  screensGeneration: number;
};

export type Interruption = { location: string; account: string | null };

/** The account an access token belongs to (its `sub`): it only decides whether interrupted work may be shown again. */
export function accountOf(accessToken: string | null): string | null {
  const sub = accessTokenClaims(accessToken)?.sub;
  return typeof sub === 'string' ? sub : null;
}

export type SessionInput = Pick<
  SessionContext,
  'accessToken' | 'refreshToken' | 'fingerprint' | 'deviceUUID' | 'isInternal' | 'ebtAccountId' | 'locale' | 'registrationDraft'
>;

/** `location`: where the user was when a call answered the auth code (the app's current route). */
export type SessionEvent =
  | ({ type: 'session.signedIn' } & SessionTokens)
  | { type: 'session.refreshRequired'; location?: string }
  | { type: 'session.signInRequired'; location?: string; unlockCodeLocked?: boolean }
  | { type: 'authModal.open'; interruption: Interruption }
  /** The router settled somewhere other than the interrupted screen while the auth modal was open. */
  | { type: 'authModal.left' }
  | { type: 'session.registrationFailed' }
  | { type: 'registration.draftChanged'; draft: RegistrationDraft | null }
  | { type: 'user.signOut' }
  | { type: 'user.changeLocale'; locale: Locale }
  | { type: 'errorModal.open' }
  | { type: 'user.closeErrorModal' }
  | { type: 'snackbar.show'; message: SnackbarMessage }
  | { type: 'user.dismissSnackbar' }
  /** A pointer over the snackbar, or the focus on its Dismiss: its time stops (WCAG 2.2 SC 2.2.1) … */
  | { type: 'user.holdSnackbar' }
  /** … and starts again, whole, when they leave. */
  | { type: 'user.releaseSnackbar' };

export const snackbarTimeoutMs = 5000;

/**
 * What views and the app ask the chart: `signedIn` while there is a session (unlocked or not),
 * `locked` while the unlock code must open it again, `authModalOpen`, `errorModalOpen`, `snackbarShown`.
 */
export type SessionTag = 'signedIn' | 'locked' | 'authModalOpen' | 'errorModalOpen' | 'snackbarShown';

/** Signing out ends the session here at once; the server is told in the background (revokeSession). */
const signOut = { target: 'signedOut', actions: ['revokeSession', 'clearSession', 'showSignedOut', 'goToSignIn', 'tellSignedOut'] } as const;

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as SessionInput,
    tags: {} as SessionTag,
    /** A sign-out (not any way of being signed out): the app tells its other tabs (src/app/main.tsx). */
    emitted: {} as { type: 'signedOut' },
  },
  guards: {
    hasAccessToken: ({ context }) => context.accessToken !== null && context.refreshToken !== failedRegistrationMarker,
    hasRefreshToken: ({ context }) => isSessionToken(context.refreshToken),
    /**
     * The interrupted screen may come back: an unlock (same refresh-token family, so same account), or
     * a sign-in by the account whose screen it was.
     */
    isSameAccount: ({ context, event }) =>
      event.type === 'session.signedIn' &&
      (context.interruption?.account ?? null) !== null &&
      accountOf(event.access) === context.interruption?.account,
    isAuthModalClosed: not(stateIn({ authModal: 'open' })),
  },
  actions: {
    storeTokens: assign(({ event }) => {
      if (event.type !== 'session.signedIn') return {};
      return { accessToken: event.access, refreshToken: event.refresh, isInternal: event.isInternal, authReason: null };
    }),
    dropAccessToken: assign({ accessToken: null, authReason: 'expired' as AuthReason }),
    dropTokens: assign(({ event }) => ({
      accessToken: null,
      refreshToken: null,
      isInternal: false,
      authReason: ('unlockCodeLocked' in event && event.unlockCodeLocked ? 'unlockCodeLocked' : 'signInAgain') as AuthReason,
    })),
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
    /**
     * The server ends the session in the background, with the refresh token as it was: the phone forgets
     * it at once, whatever the server answers and however long that takes (on a weak signal up to the
     * client's 120 s, while the account stayed open and saved for whoever held the phone next).
     */
    revokeSession: spawnChild('signOut', { input: ({ context }) => ({ refreshToken: context.refreshToken }) }),
    tellSignedOut: emit({ type: 'signedOut' }),
    /** Taken before the access token is dropped, which names the account. */
    openAuthModal: raise(({ context, event }) => ({
      type: 'authModal.open' as const,
      interruption: {
        location: 'location' in event && event.location ? event.location : '/home',
        account: accountOf(context.accessToken),
      },
    })),
    rememberInterruption: assign({
      interruption: ({ event }) => (event.type === 'authModal.open' ? event.interruption : null),
    }),
    forgetInterruption: assign({ interruption: null }),
    startScreensOver: assign({ screensGeneration: ({ context }) => context.screensGeneration + 1 }),
    /** Supplied by the app: replace the route with unlock or sign-in, remembering where the user was. */
    openAuth: () => {},
    /** Supplied by the app: show /unlock or /signin in the address bar over the interrupted screen. */
    maskRoute: () => {},
    /** Supplied by the app: the interrupted screen's route again, and its waiting calls go on with the new token. */
    resumeInterruption: (_, _params: { access: string }) => {},
    /** Supplied by the app: the waiting calls give up (they end as auth-required). */
    abandonInterruption: () => {},
    /** Supplied by the app: home, for the account that signed in instead. */
    goHome: () => {},
    /** Supplied by the app: go to sign-in after signing out. */
    goToSignIn: () => {},
  },
  actors: {
    /**
     * Supplied by the app: tells the server the session ended. It must settle without failing, whatever
     * the server answers or if it never does: a spawned child's failure would stop this chart.
     */
    signOut: fromPromise<void, { refreshToken: string | null }>(async () => {}),
  },
}).createMachine({
  id: 'session',
  type: 'parallel',
  context: ({ input }) => ({ ...input, snackbarMessage: null, authReason: null, interruption: null, screensGeneration: 0 }),
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
          tags: ['signedIn', 'locked'],
          on: {
            'session.signInRequired': [
              // On the unlock screen (a guard sent the user there): on to the sign-in screen.
              { guard: 'isAuthModalClosed', target: 'signedOut', actions: ['dropTokens', 'openAuth'] },
              // In the auth modal: it asks for a sign-in instead, over the same screen.
              { target: 'signedOut', actions: ['dropTokens', 'maskRoute'] },
            ],
            'user.signOut': signOut,
          },
        },
        /** A call answering an auth code here opens the auth modal over the screen. */
        active: {
          tags: ['signedIn'],
          on: {
            'session.refreshRequired': { target: 'locked', actions: ['openAuthModal', 'dropAccessToken'] },
            'session.signInRequired': { target: 'signedOut', actions: ['openAuthModal', 'dropTokens'] },
            'user.signOut': signOut,
          },
        },
      },
    },
    authModal: {
      initial: 'closed',
      states: {
        closed: {
          on: { 'authModal.open': { target: 'open', actions: ['rememberInterruption', 'maskRoute'] } },
        },
        open: {
          tags: ['authModalOpen'],
          on: {
            'session.signedIn': [
              {
                guard: 'isSameAccount',
                target: 'closed',
                actions: [{ type: 'resumeInterruption', params: ({ event }) => ({ access: event.access }) }, 'forgetInterruption'],
              },
              { target: 'closed', actions: ['abandonInterruption', 'forgetInterruption', 'startScreensOver', 'goHome'] },
            ],
            'user.signOut': { target: 'closed', actions: ['abandonInterruption', 'forgetInterruption'] },
            'authModal.left': { target: 'closed', actions: ['abandonInterruption', 'forgetInterruption'] },
          },
        },
      },
    },
    errorModal: {
      initial: 'closed',
      states: {
        closed: { on: { 'errorModal.open': 'open' } },
        open: { tags: ['errorModalOpen'], on: { 'user.closeErrorModal': 'closed' } },
      },
    },
    snackbar: {
      initial: 'hidden',
      states: {
        hidden: { on: { 'snackbar.show': { target: 'visible', actions: 'setSnackbar' } } },
        visible: {
          tags: ['snackbarShown'],
          after: { [snackbarTimeoutMs]: { target: 'hidden', actions: 'clearSnackbar' } },
          on: {
            'snackbar.show': { target: 'visible', reenter: true, actions: 'setSnackbar' },
            'user.dismissSnackbar': { target: 'hidden', actions: 'clearSnackbar' },
            'user.holdSnackbar': 'held',
          },
        },
        // Being read or about to be dismissed: it stays until let go (then 5 s more) or dismissed. A
        // new message while held is shown held: the reader is still there.
        held: {
          tags: ['snackbarShown'],
          on: {
            'snackbar.show': { actions: 'setSnackbar' },
            'user.dismissSnackbar': { target: 'hidden', actions: 'clearSnackbar' },
            'user.releaseSnackbar': 'visible',
          },
        },
      },
    },
  },
});
