/**
 * Core state persistence (spec §4): restored at start, saved after every change (debounced at
 * 0 ms). Transient fields (modals, snackbar, auth reason) are never saved. Standalone, state goes to
 * localStorage; embedded, it goes to the host (state.save) without the tokens, which never leave
 * the app, and nothing is written to localStorage.
 *
 * The registration draft is core state too (both modes), through `draftFrom`, which keeps only the
 * draft's known fields: an SSN, an unlock code or the phone's mfaToken can never reach storage or the
 * host. The failed-registration marker is not a token: it is kept in both modes (so /register keeps
 * showing the failure after a reload) and never comes with an access token.
 */
import { ebtAccountIdPattern, headerIdPattern } from '../../contract/shared/route.ts';
import { draftFrom } from '../../machines/identity/registrationDraft.ts';
import type { Locale } from '../../contract/shared/locale.ts';
import { failedRegistrationMarker, type SessionContext, type SessionInput } from '../../machines/session/session.ts';

/** 2: the registration draft. */
export const schemaVersion = 2;
export const storageKey = 'providers-card:state';

export type PersistedState = SessionInput & { schemaVersion: typeof schemaVersion };

/** Migrations from older schema versions to the current one; an unknown version is discarded. */
const migrations: Record<number, (old: Record<string, unknown>) => Record<string, unknown>> = {
  1: (old) => ({ ...old, registrationDraft: null, schemaVersion: 2 }),
};

export function persistedStateOf(context: SessionContext, options: { embedded: boolean } = { embedded: false }): PersistedState {
  const failedRegistration = context.refreshToken === failedRegistrationMarker;
  return {
    schemaVersion,
    accessToken: options.embedded || failedRegistration ? null : context.accessToken,
    refreshToken: failedRegistration ? failedRegistrationMarker : options.embedded ? null : context.refreshToken,
    fingerprint: context.fingerprint,
    deviceUUID: context.deviceUUID,
    isInternal: context.isInternal,
    ebtAccountId: context.ebtAccountId,
    locale: context.locale,
    registrationDraft: draftFrom(context.registrationDraft),
  };
}

const isLocale = (value: unknown): value is Locale => value === 'en' || value === 'es';
const stringOrNull = (value: unknown) => (typeof value === 'string' && value.length > 0 ? value : null);
/** A saved value sent as a header, or null: one fetch cannot send would fail every call. */
const matchingOrNull = (value: unknown, pattern: RegExp) => (typeof value === 'string' && pattern.test(value) ? value : null);

export function freshState(locale: Locale): SessionInput {
  return {
    accessToken: null,
    refreshToken: null,
    fingerprint: crypto.randomUUID(),
    deviceUUID: crypto.randomUUID(),
    isInternal: false,
    ebtAccountId: null,
    locale,
    registrationDraft: null,
  };
}

/** Reads saved state defensively: anything malformed or from an unknown version starts fresh. */
export function restoreState(saved: string | null, defaultLocale: Locale): SessionInput {
  const fresh = freshState(defaultLocale);
  if (!saved) return fresh;
  let raw: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(saved);
    if (typeof parsed !== 'object' || parsed === null) return fresh;
    raw = parsed as Record<string, unknown>;
  } catch {
    return fresh;
  }
  let version = raw.schemaVersion;
  while (typeof version === 'number' && version < schemaVersion && migrations[version]) {
    raw = migrations[version]!(raw);
    version = raw.schemaVersion;
  }
  if (version !== schemaVersion) return fresh;
  const refreshToken = stringOrNull(raw.refreshToken);
  return {
    accessToken: refreshToken === failedRegistrationMarker ? null : stringOrNull(raw.accessToken),
    refreshToken,
    fingerprint: matchingOrNull(raw.fingerprint, headerIdPattern) ?? fresh.fingerprint,
    deviceUUID: matchingOrNull(raw.deviceUUID, headerIdPattern) ?? fresh.deviceUUID,
    isInternal: raw.isInternal === true,
    ebtAccountId: matchingOrNull(raw.ebtAccountId, ebtAccountIdPattern),
    locale: isLocale(raw.locale) ? raw.locale : defaultLocale,
    registrationDraft: draftFrom(raw.registrationDraft),
  };
}

/**
 * Standalone: the browser's localStorage, which the app's tabs share. A tab writes a field only when
 * it changed it itself since it last read or wrote it; otherwise the stored value, another tab's, is
 * kept. So a tab left signed out, changing its language, keeps the session another tab signed in with,
 * and a tab renewing its session keeps the language another tab chose. The session (both tokens and
 * whether the cardholder is internal, which come with them) goes as one, by its refresh token.
 */
export function localStorageWriter(storage: Pick<Storage, 'getItem' | 'setItem'>) {
  const stored = () => restoreState(storage.getItem(storageKey), 'en');
  // The tab starts with what is stored. (An access token comes and goes with its refresh token, but
  // for one dropped when it expired: kept, it answers "expired" once more after a reload.)
  let mine: SessionInput = stored();
  return (state: PersistedState): void => {
    const theirs = stored();
    const { accessToken, refreshToken, isInternal } = state.refreshToken === mine.refreshToken ? theirs : state;
    const { locale } = state.locale === mine.locale ? theirs : state;
    storage.setItem(storageKey, JSON.stringify({ ...state, accessToken, refreshToken, isInternal, locale }));
    mine = state;
  };
}

/** Saves after the current task ends, so a burst of changes is written once. */
export function createStateSaver(write: (state: PersistedState) => void, options: { embedded: boolean }) {
  let pending: ReturnType<typeof setTimeout> | undefined;
  let latest: SessionContext | undefined;
  return (context: SessionContext) => {
    latest = context;
    if (pending !== undefined) return;
    pending = setTimeout(() => {
      pending = undefined;
      if (latest) write(persistedStateOf(latest, options));
    }, 0);
  };
}
