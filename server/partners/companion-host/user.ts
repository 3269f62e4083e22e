/**
 * The companion benefits app's signed-in user, as the sandbox companion host's tester panel sets it
 * (spec §3 "Parent app state", "EBT link"). Pure: no DOM, so the e2e page model can import it too.
 */
import { benefitKinds, notificationPermissions, type BenefitKind, type NotificationPermission } from '../../../contract/hostProtocol.ts';

export type CompanionUser = {
  /** Empty: a signed-out companion user (the host answers `uuid: null`, no access token). */
  uuid: string;
  email: string;
  authSource: string;
  eligibleBenefits: BenefitKind[];
  ebtAccountId: string;
  ebtUid: string;
  /** Lifetime of the companion access tokens the host hands the app. */
  tokenTtlSeconds: number;
  /** The companion app's language tag in its settings ("es-US"); empty: its settings say none. */
  language: string;
};

export const defaultCompanionUser: CompanionUser = {
  uuid: '3f6c2a1e-5b7d-4c8e-9a10-2b3c4d5e6f70',
  email: 'demo@providers.test',
  authSource: 'password',
  eligibleBenefits: ['EBT'],
  ebtAccountId: 'EBT-4417-2209',
  ebtUid: 'ebt-uid-demo-1',
  tokenTtlSeconds: 600,
  language: '',
};

export const signedOutCompanionUser: CompanionUser = {
  uuid: '',
  email: '',
  authSource: '',
  eligibleBenefits: [],
  ebtAccountId: '',
  ebtUid: '',
  tokenTtlSeconds: 600,
  language: '',
};

export const defaultNotificationPermission: NotificationPermission = 'NOT_YET_REQUESTED';

/** What the simulated user answers when the app asks for notification permission. */
export type PermissionAnswer = 'allow' | 'deny';

/** localStorage keys of the host page (its own origin; the card app cannot read them). */
export const storageKeys = {
  cardAppState: 'companion-host:card-app-state',
  user: 'companion-host:user',
  deviceId: 'companion-host:device-id',
  notificationPermission: 'companion-host:notification-permission',
  permissionAnswer: 'companion-host:permission-answer',
} as const;

export const minTokenTtlSeconds = 1;
export const maxTokenTtlSeconds = 3600;

const text = (value: unknown, fallback: string, max = 256): string =>
  typeof value === 'string' && value.length <= max ? value : fallback;

/** Reads a stored user; anything missing or malformed falls back to the default user's value. */
export function parseCompanionUser(value: unknown): CompanionUser {
  if (typeof value !== 'object' || value === null) return { ...defaultCompanionUser };
  const stored = value as Record<string, unknown>;
  const benefits = Array.isArray(stored.eligibleBenefits)
    ? stored.eligibleBenefits.filter((kind): kind is BenefitKind => benefitKinds.includes(kind as BenefitKind))
    : defaultCompanionUser.eligibleBenefits;
  const ttl = stored.tokenTtlSeconds;
  return {
    uuid: text(stored.uuid, defaultCompanionUser.uuid, 128),
    email: text(stored.email, defaultCompanionUser.email),
    authSource: text(stored.authSource, defaultCompanionUser.authSource, 64),
    eligibleBenefits: [...new Set(benefits)],
    ebtAccountId: text(stored.ebtAccountId, defaultCompanionUser.ebtAccountId, 64),
    ebtUid: text(stored.ebtUid, defaultCompanionUser.ebtUid, 128),
    tokenTtlSeconds:
      typeof ttl === 'number' && Number.isInteger(ttl) && ttl >= minTokenTtlSeconds && ttl <= maxTokenTtlSeconds
        ? ttl
        : defaultCompanionUser.tokenTtlSeconds,
    language: text(stored.language, defaultCompanionUser.language, 35),
  };
}

export function parseNotificationPermission(value: unknown): NotificationPermission {
  return notificationPermissions.includes(value as NotificationPermission)
    ? (value as NotificationPermission)
    : defaultNotificationPermission;
}

/** An empty field is "not set": the host answers null for it. */
export const orNull = (value: string): string | null => (value.trim() === '' ? null : value.trim());

/**
 * A one-line JSON summary of a payload for the message log: access tokens are shown as
 * "[token, N chars]"; saved state is shown in full (it never holds tokens, and testers check that).
 */
export function summarizePayload(payload: unknown): string {
  const redact = (value: unknown, key: string | undefined): unknown => {
    if (key === 'state') return value;
    if (key === 'accessToken' && typeof value === 'string') return `[token, ${value.length} chars]`;
    if (Array.isArray(value)) return value.map((item) => redact(item, undefined));
    if (typeof value === 'object' && value !== null) {
      return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, redact(item, name)]));
    }
    return value;
  };
  if (payload === undefined) return '';
  try {
    return JSON.stringify(redact(payload, undefined)) ?? String(payload);
  } catch {
    return String(payload);
  }
}
