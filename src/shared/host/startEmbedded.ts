/**
 * Start-up inside the companion app (loaded only when embedded): connect to the host, load the
 * saved state, device id and parent-app user, sign a providers user in, and hand back the initial
 * session and the Host the views use. State is then saved through the host, never localStorage.
 */
import { createActor, fromPromise, waitFor } from 'xstate';
import type { AppConfig } from '../../../contract/shared/appConfig.ts';
import { sessionRoutes } from '../../../contract/session/routes.ts';
import type { SignInAnswer } from '../../../contract/session/types.ts';
import { ebtAccountIdPattern, headerIdPattern, urlOf } from '../../../contract/shared/route.ts';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import { hostMachine, ProvidersSignInRefused, type HostConnection } from '../../../machines/host/host.ts';
import { preferredLocale, type Locale } from '../../../contract/shared/locale.ts';
import { failedRegistrationMarker, type SessionInput } from '../../../machines/session/session.ts';
import { restoreState, type PersistedState } from '../../app/persistence.ts';
import type { ErrorReporter } from '../../app/errorReporting.ts';
import { requestTimeoutMs } from '../api/client.ts';
import { connectHostBridge } from './bridge.ts';
import { CompanionSignInNotice } from './CompanionSignInNotice.tsx';
import type { Host } from './host.ts';

export type EmbeddedStart = {
  initial: SessionInput;
  host: Host;
  saveState: (state: PersistedState) => void;
  /** The companion user has no card account yet (providers sign-in answered NOT_ALLOWED): offer registration. */
  needsRegistration: boolean;
  /** Signed in, but wrong unlock codes locked the unlock code: it must be reset first. */
  mustResetUnlockCode: boolean;
};

export async function startEmbedded(
  self: Window,
  options: { config: AppConfig; parentOrigin: string | null; defaultLocale: Locale; errors: ErrorReporter },
): Promise<EmbeddedStart> {
  const { config, errors } = options;
  const bridge = connectHostBridge(self, {
    parentOrigin: options.parentOrigin,
    hostOrigins: config.hostOrigins,
    otherTrustedOrigins: [...config.processorOrigins, ...config.accountLinkingOrigins],
    onUnknownOrigin: (origin) => errors.warning('Message from an unknown origin ignored', { origin }),
    onMalformed: (origin) => errors.warning('Malformed host message rejected', { origin }),
  });

  let needsRegistration = false;
  const actor = createActor(
    hostMachine.provide({
      actors: {
        connectToHost: fromPromise(async (): Promise<HostConnection> => {
          // The first answer also tells the bridge which origin the parent is.
          const { state } = await bridge.ask('state.load');
          const [device, permission, uuid, authEmail, settings, ebtLink] = await Promise.all([
            bridge.ask('deviceId.get'),
            bridge.ask('notificationPermission.get'),
            bridge.ask('parentApp.uuid.get'),
            bridge.ask('parentApp.authEmail.get'),
            bridge.ask('parentApp.userSettings.get'),
            bridge.ask('parentApp.ebtLink.get'),
          ]);
          return {
            savedState: state,
            deviceId: device.deviceId,
            notificationPermission: permission.permission,
            parentApp: {
              uuid: uuid.uuid,
              ...authEmail,
              eligibleBenefits: settings.userSettings.eligibleBenefits,
              language: typeof settings.userSettings.language === 'string' ? settings.userSettings.language : null,
              ebtLink,
            },
          };
        }),
        providersSignIn: fromPromise(async ({ input }) => {
          const { accessToken } = await bridge.ask('parentApp.accessToken.get');
          if (!accessToken) throw new ProvidersSignInRefused('The companion app has no token');
          const answer = await providersSignIn(accessToken, initialSession(input.connection, options.defaultLocale));
          // The server's own failure is no refusal: trying again may work.
          if (answer.statusCode === StatusCode.UNEXPECTED_ERROR) throw new Error('statusCode 5');
          if (answer.statusCode !== StatusCode.SUCCESS || !answer.access || !answer.refresh) {
            needsRegistration = answer.statusCode === StatusCode.NOT_ALLOWED;
            throw new ProvidersSignInRefused(`statusCode ${answer.statusCode}`);
          }
          return { access: answer.access, refresh: answer.refresh, isInternal: answer.isInternal ?? false, mustResetUnlockCode: answer.mustResetUnlockCode === true };
        }),
        requestNotificationPermission: fromPromise(async () => (await bridge.ask('notificationPermission.request')).permission),
      },
    }),
  );
  bridge.onPush((message) => actor.send({ type: 'host.notificationPermissionChanged', permission: message.payload.permission }));
  actor.start();
  const started = await waitFor(actor, (snapshot) => snapshot.hasTag('started'), { timeout: Infinity });

  const { connection, tokens } = started.context;
  if (!connection) errors.warning('The companion host did not answer; running without it');
  const session = connection ? initialSession(connection, options.defaultLocale) : restoreState(null, options.defaultLocale);
  return {
    initial: tokens ? { ...session, accessToken: tokens.access, refreshToken: tokens.refresh, isInternal: tokens.isInternal } : session,
    // Without a connection the app runs on a fresh state that must not replace what the host kept (its draft).
    saveState: connection ? (state) => bridge.tell('state.save', { state }) : () => {},
    needsRegistration,
    mustResetUnlockCode: tokens?.mustResetUnlockCode === true,
    host: {
      embedded: true,
      openUrl: (url) => bridge.tell('url.open', { url }),
      copyText: async (text) => bridge.tell('clipboard.copy', { text }),
      returnToHostRoute: (route) => bridge.tell('hostRoute.return', { route }),
      eligibleBenefits: connection?.parentApp.eligibleBenefits ?? [],
      actor,
      sendSitevars: (sitevars) => bridge.tell('cms.sitevars', { sitevars }),
      companionAccessToken: async () => (await bridge.ask('parentApp.accessToken.get')).accessToken,
      providersUuid: connection?.parentApp.uuid ?? null,
      // A companion user with no card account yet registers: their refusal is no sign-in problem.
      signInNotice: needsRegistration ? null : CompanionSignInNotice,
    },
  };
}

/**
 * Saved state from the host, with the host's device id and EBT link (the host knows them best). Each
 * is sent as a header on every call, so one that cannot be is not taken: a device id fetch cannot send
 * would fail every call, and an EBT account id the server refuses would fail registration (it is
 * then not linked). Never a token: the app saves none to the host, so one there is not the app's (the
 * failed-registration marker is not a token).
 */
function initialSession(connection: HostConnection, defaultLocale: Locale): SessionInput {
  const restored = restoreState(connection.savedState ? JSON.stringify(connection.savedState) : null, defaultLocale);
  const { ebtaccountId } = connection.parentApp.ebtLink;
  return {
    ...restored,
    // The companion app's language wins over the one saved (ARCHITECTURE §9): a cardholder who switches
    // it there finds the card app switched too. One the app does not speak leaves the saved one.
    locale: preferredLocale([connection.parentApp.language ?? '', restored.locale]),
    accessToken: null,
    refreshToken: restored.refreshToken === failedRegistrationMarker ? failedRegistrationMarker : null,
    deviceUUID: headerIdPattern.test(connection.deviceId) ? connection.deviceId : restored.deviceUUID,
    ebtAccountId: ebtaccountId === null ? restored.ebtAccountId : ebtAccountIdPattern.test(ebtaccountId) ? ebtaccountId : null,
  };
}

/** Before the app (and its API client) exist: one plain call with the companion app's token. */
async function providersSignIn(companionToken: string, session: SessionInput): Promise<SignInAnswer> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Authorization: `Bearer ${companionToken}`,
    Fingerprint: session.fingerprint,
    'Device-UUID': session.deviceUUID,
    'Accept-Language': session.locale,
  };
  if (session.ebtAccountId) headers['EBT-Account-ID'] = session.ebtAccountId;
  // The client's limit too: a call that never ends would leave the start-up waiting with no Try again.
  // A timer, as ofetch's: AbortSignal.timeout needs Chrome 103, the build targets older WebViews.
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), requestTimeoutMs);
  const answer = (await fetch(urlOf(sessionRoutes.providersSignIn), { method: 'POST', headers, body: '{}', signal: abort.signal })
    .then((response) => response.json())
    .finally(() => clearTimeout(timer))) as SignInAnswer;
  if (typeof answer.statusCode !== 'number') throw new Error('No statusCode');
  return answer;
}
