/**
 * The companion host, as the embedded app sees it (spec §1, §3 parent app state, §6 providers user).
 * At start the app asks its host for the saved state, the device id, the parent-app user and the
 * notification permission; a parent-app user with a uuid is a providers user, signed in to the card
 * API with the companion app's token. After that the host may push permission changes, and the user
 * may ask for notifications. Talking to the host and the API are actors the app supplies.
 */
import { assign, fromPromise } from 'xstate';
import { setup } from '../shared/setup.ts';
import type { BenefitKind, EbtLink, HostSavedState, NotificationPermission } from '../../contract/hostProtocol.ts';
import type { SessionTokens } from '../../contract/shared/answers.ts';

export type ParentAppUser = {
  uuid: string | null;
  authEmail: string | null;
  authSource: string | null;
  eligibleBenefits: BenefitKind[];
  /** The companion app's language tag, when its settings say it. */
  language: string | null;
  ebtLink: EbtLink;
};

/** What the host tells the app when it connects. */
export type HostConnection = {
  savedState: HostSavedState | null;
  deviceId: string;
  parentApp: ParentAppUser;
  notificationPermission: NotificationPermission;
};

/** The card API's tokens for a providers user, and whether the unlock code must be reset first (wrong codes locked it). */
export type ProvidersSession = SessionTokens & { mustResetUnlockCode?: boolean };

/** Why a providers user is not signed in: the card API refused the companion token, or no answer. */
export type ProvidersSignInProblem = 'refused' | 'failed';

export type HostContext = {
  connection: HostConnection | null;
  notificationPermission: NotificationPermission;
  tokens: ProvidersSession | null;
  signInProblem: ProvidersSignInProblem | null;
};

export type HostEvent =
  | { type: 'host.notificationPermissionChanged'; permission: NotificationPermission }
  | { type: 'user.requestNotificationPermission' }
  /** Sign in through the companion app again, after its start-up sign-in got no answer. */
  | { type: 'user.retrySignIn' }
  /** The card app's session signed in (another way, or the retry): the start-up's problem is over. */
  | { type: 'session.signedIn' };

/** Thrown by the providersSignIn actor when the card API answers with a refusal statusCode. */
export class ProvidersSignInRefused extends Error {}

/** What the app asks the chart: `started` once start-up is over (whatever its outcome), `askingPermission` while the companion app asks for notifications. */
export type HostTag = 'started' | 'askingPermission';

export const hostMachine = setup({
  types: {
    context: {} as HostContext,
    events: {} as HostEvent,
    tags: {} as HostTag,
  },
  guards: {
    isProvidersUser: ({ context }) => Boolean(context.connection?.parentApp.uuid),
    signInFailed: ({ context }) => context.signInProblem === 'failed',
    wasRefused: (_, error: unknown) => error instanceof ProvidersSignInRefused,
  },
  actions: {
    storeConnection: assign((_, connection: HostConnection) => ({
      connection,
      notificationPermission: connection.notificationPermission,
    })),
    storeTokens: assign((_, tokens: ProvidersSession) => ({ tokens })),
    storePermission: assign((_, permission: NotificationPermission) => ({ notificationPermission: permission })),
    noteRefused: assign({ signInProblem: 'refused' as ProvidersSignInProblem }),
    noteFailed: assign({ signInProblem: 'failed' as ProvidersSignInProblem }),
    forgetSignInProblem: assign({ signInProblem: null }),
  },
  actors: {
    connectToHost: fromPromise<HostConnection>(async () => {
      throw new Error('connectToHost is supplied by the app');
    }),
    providersSignIn: fromPromise<ProvidersSession, { connection: HostConnection }>(async () => {
      throw new Error('providersSignIn is supplied by the app');
    }),
    requestNotificationPermission: fromPromise<NotificationPermission>(async () => {
      throw new Error('requestNotificationPermission is supplied by the app');
    }),
  },
}).createMachine({
  id: 'host',
  initial: 'connecting',
  context: { connection: null, notificationPermission: 'UNKNOWN', tokens: null, signInProblem: null },
  states: {
    connecting: {
      invoke: {
        src: 'connectToHost',
        onDone: { target: 'checkingUser', actions: { type: 'storeConnection', params: ({ event }) => event.output } },
        onError: 'unavailable',
      },
    },
    checkingUser: {
      always: [{ guard: 'isProvidersUser', target: 'signingIn' }, { target: 'ready' }],
    },
    /** The companion app's token is exchanged for card API tokens (POST /providers/sign-in). */
    signingIn: {
      entry: 'forgetSignInProblem',
      invoke: {
        src: 'providersSignIn',
        input: ({ context }) => ({ connection: context.connection! }),
        onDone: { target: 'ready', actions: { type: 'storeTokens', params: ({ event }) => event.output } },
        onError: [
          { guard: { type: 'wasRefused', params: ({ event }: { event: { error: unknown } }) => event.error }, target: 'ready', actions: 'noteRefused' },
          { target: 'ready', actions: 'noteFailed' },
        ],
      },
      // Signed in with a password while a retry was under way: its outcome no longer matters.
      on: { 'session.signedIn': 'ready' },
    },
    ready: {
      tags: ['started'],
      on: {
        'host.notificationPermissionChanged': { actions: { type: 'storePermission', params: ({ event }) => event.permission } },
        'user.requestNotificationPermission': 'requestingPermission',
        // Only a sign-in that got no answer is worth trying again: a refusal would be refused again.
        'user.retrySignIn': { guard: 'signInFailed', target: 'signingIn' },
        'session.signedIn': { actions: 'forgetSignInProblem' },
      },
    },
    requestingPermission: {
      tags: ['started', 'askingPermission'],
      invoke: {
        src: 'requestNotificationPermission',
        onDone: { target: 'ready', actions: { type: 'storePermission', params: ({ event }) => event.output } },
        onError: 'ready',
      },
      on: {
        'host.notificationPermissionChanged': { actions: { type: 'storePermission', params: ({ event }) => event.permission } },
      },
    },
    /** The host did not answer in time: the app runs on fresh state and saves nothing. */
    unavailable: { tags: ['started'] },
  },
});
