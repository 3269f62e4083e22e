/**
 * The host protocol: the messages the card app and the companion benefits app (its parent window)
 * exchange with postMessage (spec §1, §3 parent app state, §7 "Other"). Documented in
 * docs/host-protocol.md. This module is pure: types, message builders and validators; no window.
 *
 * Every message is an envelope `{ protocol, type, ... }`:
 * - app → host query:  `{ protocol, type, id }`; the host answers `{ protocol, type: 'reply', replyTo: id, payload }`
 *   (or `{ ..., error: 'unsupported' }` when it cannot answer).
 * - app → host notice: `{ protocol, type, payload }`, no answer.
 * - host → app push:   `{ protocol, type, payload }`, unasked.
 */

export const hostProtocol = 'providers-card-host/1';

export const notificationPermissions = ['UNKNOWN', 'NOT_YET_REQUESTED', 'DISABLED', 'ENABLED'] as const;
export type NotificationPermission = (typeof notificationPermissions)[number];

export const benefitKinds = ['EBT', 'WIC', 'CTC', 'SSI_SSDI'] as const;
export type BenefitKind = (typeof benefitKinds)[number];

/** App state the host keeps for the app. Never tokens, never transient UI flags. */
export type HostSavedState = Record<string, unknown>;

export type UserSettings = {
  eligibleBenefits: BenefitKind[];
  /**
   * The companion app's language, a language tag ("es-US", "es_US"): the card app starts in it when it
   * speaks it. Anything else (null, a number) counts as none: it never fails the reply, whose benefits count.
   */
  language?: unknown;
};
export type EbtLink = { ebtaccountId: string | null; uid: string | null };
/** What the CMS gets to target card content (spec §3 sitevars); the refresh token itself never leaves. */
export type CmsSitevars = {
  hasRefreshToken: boolean;
  hostname: string;
  inEmbedded: boolean;
  registrationWave: string | null;
  hasActivated: boolean;
  hasFundedAnyKind: boolean;
  hasPhysicalCard: boolean;
};

/** Questions the app asks the host, each with the payload of its reply. */
export type HostQueries = {
  'state.load': { state: HostSavedState | null };
  'deviceId.get': { deviceId: string };
  'notificationPermission.get': { permission: NotificationPermission };
  /** Ask the host to show the system prompt; the reply is the permission afterwards. */
  'notificationPermission.request': { permission: NotificationPermission };
  'parentApp.uuid.get': { uuid: string | null };
  'parentApp.authEmail.get': { authEmail: string | null; authSource: string | null };
  'parentApp.userSettings.get': { userSettings: UserSettings };
  /** The companion app's own access token, exchanged at POST /providers/sign-in. */
  'parentApp.accessToken.get': { accessToken: string | null };
  'parentApp.ebtLink.get': EbtLink;
};
export type HostQueryType = keyof HostQueries;

/** Things the app tells the host; no reply. */
export type HostNotices = {
  'state.save': { state: HostSavedState };
  'url.open': { url: string };
  'clipboard.copy': { text: string };
  /** Leave the card app for one of the host's own screens. */
  'hostRoute.return': { route: string };
  'cms.sitevars': { sitevars: CmsSitevars };
};
export type HostNoticeType = keyof HostNotices;

/** Things the host tells the app unasked. */
export type HostPushes = {
  'notificationPermission.changed': { permission: NotificationPermission };
};
export type HostPushType = keyof HostPushes;

export type QueryMessage = { protocol: typeof hostProtocol; type: HostQueryType; id: string };
export type NoticeMessage<T extends HostNoticeType = HostNoticeType> = {
  protocol: typeof hostProtocol;
  type: T;
  payload: HostNotices[T];
};
export type ReplyMessage = { protocol: typeof hostProtocol; type: 'reply'; replyTo: string; payload?: unknown; error?: string };
export type PushMessage<T extends HostPushType = HostPushType> = { protocol: typeof hostProtocol; type: T; payload: HostPushes[T] };
/** Whatever the app may send. */
export type AppMessage = QueryMessage | NoticeMessage;
/** Whatever the host may send. */
export type HostMessage = ReplyMessage | PushMessage;

export const queryMessage = (type: HostQueryType, id: string): QueryMessage => ({ protocol: hostProtocol, type, id });
export const noticeMessage = <T extends HostNoticeType>(type: T, payload: HostNotices[T]): NoticeMessage<T> => ({
  protocol: hostProtocol,
  type,
  payload,
});

// --- validation: everything from another window is untrusted input -------------------------------

type Check<T> = (value: unknown) => value is T;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isShortString = (value: unknown, max = 2048): value is string => typeof value === 'string' && value.length <= max;
const isStringOrNull = (value: unknown, max = 256): value is string | null => value === null || isShortString(value, max);
const isPermission = (value: unknown): value is NotificationPermission =>
  notificationPermissions.includes(value as NotificationPermission);
const isBenefit = (value: unknown): value is BenefitKind => benefitKinds.includes(value as BenefitKind);
const hasPermission = (value: unknown): value is { permission: NotificationPermission } =>
  isRecord(value) && isPermission(value.permission);
/** Saved state must be plain JSON of bounded size (a structured clone may carry cycles or BigInts). */
const isSavedState = (value: unknown): value is HostSavedState => {
  if (!isRecord(value)) return false;
  try {
    return JSON.stringify(value).length <= 16_384;
  } catch {
    return false;
  }
};

/** Runs a parser so that nothing it meets (throwing getters, proxies) can make it throw. */
function safely<T>(parse: () => T | undefined): T | undefined {
  try {
    return parse();
  } catch {
    return undefined;
  }
}

/** Reply payload validators, one per query. */
export const replyChecks: { [K in HostQueryType]: Check<HostQueries[K]> } = {
  'state.load': (value): value is HostQueries['state.load'] =>
    isRecord(value) && (value.state === null || isSavedState(value.state)),
  'deviceId.get': (value): value is HostQueries['deviceId.get'] =>
    isRecord(value) && isShortString(value.deviceId, 128) && value.deviceId.length > 0,
  'notificationPermission.get': hasPermission,
  'notificationPermission.request': hasPermission,
  'parentApp.uuid.get': (value): value is HostQueries['parentApp.uuid.get'] => isRecord(value) && isStringOrNull(value.uuid),
  'parentApp.authEmail.get': (value): value is HostQueries['parentApp.authEmail.get'] =>
    isRecord(value) && isStringOrNull(value.authEmail) && isStringOrNull(value.authSource),
  'parentApp.userSettings.get': (value): value is HostQueries['parentApp.userSettings.get'] =>
    isRecord(value) &&
    isRecord(value.userSettings) &&
    Array.isArray(value.userSettings.eligibleBenefits) &&
    value.userSettings.eligibleBenefits.every(isBenefit),
  'parentApp.accessToken.get': (value): value is HostQueries['parentApp.accessToken.get'] =>
    isRecord(value) && isStringOrNull(value.accessToken, 4096),
  'parentApp.ebtLink.get': (value): value is EbtLink =>
    isRecord(value) && isStringOrNull(value.ebtaccountId, 64) && isStringOrNull(value.uid, 128),
};

const pushChecks: { [K in HostPushType]: Check<HostPushes[K]> } = {
  'notificationPermission.changed': hasPermission,
};

/**
 * Reads a message from the host. Anything that is not a well-formed protocol message answers
 * undefined (never throws): the caller drops it.
 */
export function parseHostMessage(data: unknown): HostMessage | undefined {
  return safely(() => readHostMessage(data));
}

function readHostMessage(data: unknown): HostMessage | undefined {
  if (!isRecord(data) || data.protocol !== hostProtocol) return undefined;
  if (data.type === 'reply') {
    if (!isShortString(data.replyTo, 64)) return undefined;
    if (data.error !== undefined && !isShortString(data.error, 256)) return undefined;
    return { protocol: hostProtocol, type: 'reply', replyTo: data.replyTo, payload: data.payload, error: data.error };
  }
  const type = data.type as HostPushType;
  if (!Object.hasOwn(pushChecks, type)) return undefined;
  if (!pushChecks[type](data.payload)) return undefined;
  return { protocol: hostProtocol, type, payload: data.payload };
}

/** Reads a message from the app (used by hosts, including the sandbox companion host). */
export function parseAppMessage(data: unknown): AppMessage | undefined {
  return safely(() => readAppMessage(data));
}

function readAppMessage(data: unknown): AppMessage | undefined {
  if (!isRecord(data) || data.protocol !== hostProtocol || typeof data.type !== 'string') return undefined;
  if (Object.hasOwn(replyChecks, data.type)) {
    return isShortString(data.id, 64) ? { protocol: hostProtocol, type: data.type as HostQueryType, id: data.id } : undefined;
  }
  const payload = data.payload;
  if (!isRecord(payload)) return undefined;
  switch (data.type) {
    case 'state.save':
      return isSavedState(payload.state) ? noticeMessage('state.save', { state: payload.state }) : undefined;
    case 'url.open':
      return isShortString(payload.url) && /^https?:\/\//.test(payload.url) ? noticeMessage('url.open', { url: payload.url }) : undefined;
    case 'clipboard.copy':
      return isShortString(payload.text, 256) ? noticeMessage('clipboard.copy', { text: payload.text }) : undefined;
    case 'hostRoute.return':
      return isShortString(payload.route, 256) ? noticeMessage('hostRoute.return', { route: payload.route }) : undefined;
    case 'cms.sitevars':
      return isRecord(payload.sitevars) ? noticeMessage('cms.sitevars', { sitevars: payload.sitevars as CmsSitevars }) : undefined;
    default:
      return undefined;
  }
}
