/** Core state persistence: what is saved, how saved state is read back, and when it is written. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RegistrationDraft } from '../../machines/identity/registrationDraft.ts';
import { failedRegistrationMarker, type SessionContext, type SessionInput } from '../../machines/session/session.ts';
import {
  createStateSaver,
  localStorageWriter,
  persistedStateOf,
  restoreState,
  schemaVersion,
  storageKey,
  type PersistedState,
} from '../../src/app/persistence.ts';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const draft: RegistrationDraft = {
  furthestStep: 3,
  firstName: 'Ana',
  middleName: '',
  lastName: 'López',
  dob: '01/15/1990',
  email: 'ana@example.test',
  phone: '2022010143',
  codeSentTo: null,
  street1: '1 Main St',
  street2: '',
  city: 'Columbus',
  state: 'OH',
  zip: '43004',
  legal: { esign: 'agreed', terms: null, cardholder3: null },
};

const context: SessionContext = {
  accessToken: 'access-1',
  refreshToken: 'refresh-1',
  fingerprint: 'fp-1',
  deviceUUID: 'device-1',
  isInternal: true,
  ebtAccountId: 'ebt-1',
  locale: 'es',
  registrationDraft: draft,
  snackbarMessage: 'signedOut',
  authReason: 'expired',
  interruption: { location: '/home', account: 'user-1' },
  screensGeneration: 3,
};

const inputOf = ({ snackbarMessage: _s, authReason: _a, interruption: _i, screensGeneration: _g, ...input }: SessionContext): SessionInput => input;

const saved = (fields: Record<string, unknown>) => JSON.stringify({ ...persistedStateOf(context), ...fields });

function expectFresh(state: SessionInput, locale: SessionInput['locale']) {
  expect(state.accessToken).toBeNull();
  expect(state.refreshToken).toBeNull();
  expect(state.isInternal).toBe(false);
  expect(state.ebtAccountId).toBeNull();
  expect(state.locale).toBe(locale);
  expect(state.fingerprint).toMatch(uuid);
  expect(state.deviceUUID).toMatch(uuid);
  // Old device ids are not carried into a fresh state either.
  expect(state.fingerprint).not.toBe(context.fingerprint);
  expect(state.deviceUUID).not.toBe(context.deviceUUID);
}

describe('persistedStateOf', () => {
  it('keeps exactly the core fields and the schema version', () => {
    const persisted = persistedStateOf(context);
    expect(Object.keys(persisted).sort()).toEqual(
      [
        'schemaVersion',
        'accessToken',
        'refreshToken',
        'fingerprint',
        'deviceUUID',
        'isInternal',
        'ebtAccountId',
        'locale',
        'registrationDraft',
      ].sort(),
    );
    expect(persisted).toEqual({ schemaVersion: 2, ...inputOf(context) });
  });

  it('never saves transient fields or anything else that is in the context', () => {
    const withExtra = { ...context, errorModalOpen: true, password: 'secret' } as SessionContext;
    const json = JSON.stringify(persistedStateOf(withExtra));
    expect(json).not.toContain('snackbarMessage');
    expect(json).not.toContain('authReason');
    expect(json).not.toMatch(/interruption|screensGeneration/);
    expect(json).not.toContain('errorModalOpen');
    expect(json).not.toContain('secret');
  });
});

describe('restoreState', () => {
  it('starts fresh with random device ids and the given locale when nothing is saved', () => {
    const a = restoreState(null, 'es');
    const b = restoreState(null, 'en');
    expectFresh(a, 'es');
    expectFresh(b, 'en');
    expect(a.fingerprint).not.toBe(a.deviceUUID);
    expect(a.fingerprint).not.toBe(b.fingerprint);
    expect(a.deviceUUID).not.toBe(b.deviceUUID);
  });

  it('starts fresh for an empty string', () => {
    expectFresh(restoreState('', 'en'), 'en');
  });

  it('reads back exactly what was saved', () => {
    expect(restoreState(JSON.stringify(persistedStateOf(context)), 'en')).toEqual(inputOf(context));
    const signedOut: SessionContext = {
      ...context,
      accessToken: null,
      refreshToken: null,
      isInternal: false,
      ebtAccountId: null,
      locale: 'en',
      registrationDraft: null,
    };
    expect(restoreState(JSON.stringify(persistedStateOf(signedOut)), 'es')).toEqual(inputOf(signedOut));
  });

  it.each([
    ['malformed JSON', '{"schemaVersion":1,'],
    ['not JSON at all', 'access-1'],
    ['a JSON string', '"hello"'],
    ['a JSON number', '42'],
    ['JSON null', 'null'],
    ['a JSON array', '[1,2]'],
    ['a JSON boolean', 'true'],
  ])('starts fresh for %s', (_name, raw) => {
    expectFresh(restoreState(raw, 'es'), 'es');
  });

  it.each([
    ['0', { schemaVersion: 0 }],
    ['3', { schemaVersion: 3 }],
    ['"2" (a string)', { schemaVersion: '2' }],
    ['null', { schemaVersion: null }],
  ])('discards saved tokens and ids when schemaVersion is %s', (_name, fields) => {
    expectFresh(restoreState(saved(fields), 'en'), 'en');
  });

  it('discards saved tokens and ids when schemaVersion is missing', () => {
    const { schemaVersion: _v, ...withoutVersion } = persistedStateOf(context);
    expect(schemaVersion).toBe(2);
    expectFresh(restoreState(JSON.stringify(withoutVersion), 'en'), 'en');
  });

  it('sanitizes wrong-typed tokens to null', () => {
    const state = restoreState(saved({ accessToken: 123, refreshToken: { token: 'x' }, ebtAccountId: ['ebt'] }), 'en');
    expect(state.accessToken).toBeNull();
    expect(state.refreshToken).toBeNull();
    expect(state.ebtAccountId).toBeNull();
    // The valid fields are kept.
    expect(state.fingerprint).toBe('fp-1');
    expect(state.deviceUUID).toBe('device-1');
    expect(state.locale).toBe('es');
  });

  it('treats empty-string tokens as absent', () => {
    const state = restoreState(saved({ accessToken: '', refreshToken: '' }), 'en');
    expect(state.accessToken).toBeNull();
    expect(state.refreshToken).toBeNull();
  });

  it('replaces wrong-typed or empty device ids with new random ones', () => {
    const state = restoreState(saved({ fingerprint: 42, deviceUUID: '' }), 'en');
    expect(state.fingerprint).toMatch(uuid);
    expect(state.deviceUUID).toMatch(uuid);
    expect(state.accessToken).toBe('access-1');
  });

  it('replaces saved ids fetch could not send as headers, and an EBT account id the server would refuse', () => {
    const state = restoreState(saved({ fingerprint: 'fp 1', deviceUUID: 'pixel–7', ebtAccountId: 'EBT 4417' }), 'en');
    expect(state.fingerprint).toMatch(uuid);
    expect(state.deviceUUID).toMatch(uuid);
    expect(state.ebtAccountId).toBeNull();
    expect(restoreState(saved({ deviceUUID: 'host-device-7', ebtAccountId: 'EBT-4417-2209' }), 'en')).toMatchObject({
      deviceUUID: 'host-device-7',
      ebtAccountId: 'EBT-4417-2209',
    });
  });

  it('only accepts isInternal === true', () => {
    expect(restoreState(saved({ isInternal: 'true' }), 'en').isInternal).toBe(false);
    expect(restoreState(saved({ isInternal: 1 }), 'en').isInternal).toBe(false);
    expect(restoreState(saved({ isInternal: true }), 'en').isInternal).toBe(true);
  });

  it('falls back to the default locale for an unsupported one', () => {
    expect(restoreState(saved({ locale: 'fr' }), 'en').locale).toBe('en');
    expect(restoreState(saved({ locale: 'fr' }), 'es').locale).toBe('es');
    expect(restoreState(saved({ locale: 7 }), 'es').locale).toBe('es');
    expect(restoreState(saved({ locale: 'es' }), 'en').locale).toBe('es');
  });

  it('ignores transient or unknown fields in saved state', () => {
    const state = restoreState(saved({ snackbarMessage: 'signedOut', authReason: 'expired', extra: 1 }), 'en');
    expect(state).toEqual(inputOf(context));
  });
});

describe('schema migration', () => {
  const version1 = {
    schemaVersion: 1,
    accessToken: 'access-1',
    refreshToken: 'refresh-1',
    fingerprint: 'fp-1',
    deviceUUID: 'device-1',
    isInternal: true,
    ebtAccountId: 'ebt-1',
    locale: 'es',
  };

  it('reads schema 1 (before the registration draft) as schema 2 without a draft', () => {
    expect(restoreState(JSON.stringify(version1), 'en')).toEqual({ ...inputOf(context), registrationDraft: null });
  });

  it('ignores a draft-like field in schema 1 state', () => {
    const restored = restoreState(JSON.stringify({ ...version1, registrationDraft: draft }), 'en');
    expect(restored.registrationDraft).toBeNull();
    expect(restored.accessToken).toBe('access-1');
  });
});

describe('the registration draft', () => {
  it('is saved and restored, standalone and embedded', () => {
    expect(restoreState(JSON.stringify(persistedStateOf(context)), 'en').registrationDraft).toEqual(draft);
    expect(restoreState(JSON.stringify(persistedStateOf(context, { embedded: true })), 'en').registrationDraft).toEqual(draft);
  });

  it('never saves an SSN or unlock code, whatever the draft object holds', () => {
    const polluted = { ...draft, ssn: '123456789', unlockCode: '2580', unlockCodeConfirmation: '2580', profile: '{"ssn":"123-45-6789"}' };
    const withSsn = { ...context, registrationDraft: polluted as RegistrationDraft };
    for (const embedded of [false, true]) {
      const json = JSON.stringify(persistedStateOf(withSsn, { embedded }));
      expect(json).not.toMatch(/ssn|123456789|123-45-6789|unlockCode|2580|profile/i);
      expect(JSON.parse(json).registrationDraft).toEqual(draft);
    }
  });

  // The texted code's token proves the phone to POST /register for 30 minutes: whoever reads the saved
  // state (the browser's storage, the companion app) must not get it. The chart asks for the phone again.
  const mfaToken = 'Xq3v9J0kL2mN4pR6sT8uW0yA1bC3dE5fG7hI9jK1lM2';
  const verified = { ...draft, verifiedPhone: '2022010143', mfaToken } as RegistrationDraft;

  it('never saves the mfaToken, nor which phone it proved, standalone or embedded', () => {
    const withToken = { ...context, registrationDraft: verified };
    for (const embedded of [false, true]) {
      const persisted = persistedStateOf(withToken, { embedded });
      const json = JSON.stringify(persisted);
      expect(json).not.toContain(mfaToken);
      expect(json).not.toMatch(/mfaToken|verifiedPhone/);
      // Everything else of the draft is kept.
      expect(persisted.registrationDraft).toEqual(draft);
    }
  });

  it('writes no mfaToken to localStorage or to the host (state.save)', () => {
    vi.useFakeTimers();
    try {
      const stored = new Map<string, string>();
      const sentToHost: PersistedState[] = [];
      const standalone = createStateSaver(localStorageWriter({ getItem: (key) => stored.get(key) ?? null, setItem: (key, value) => void stored.set(key, value) }), { embedded: false });
      const embedded = createStateSaver((state) => void sentToHost.push(state), { embedded: true });
      standalone({ ...context, registrationDraft: verified });
      embedded({ ...context, registrationDraft: verified });
      vi.runAllTimers();
      expect(stored.get(storageKey)).toContain('"firstName":"Ana"');
      expect(stored.get(storageKey)).not.toContain(mfaToken);
      expect(sentToHost).toHaveLength(1);
      expect(JSON.stringify(sentToHost)).not.toContain(mfaToken);
      expect(sentToHost[0]!.registrationDraft).toEqual(draft);
    } finally {
      vi.useRealTimers();
    }
  });

  it('drops an mfaToken a draft saved before holds when it is read back', () => {
    const restored = restoreState(saved({ registrationDraft: { ...draft, verifiedPhone: '2022010143', mfaToken } }), 'en');
    expect(restored.registrationDraft).toEqual(draft);
    expect(JSON.stringify(restored)).not.toContain(mfaToken);
  });

  it('reads a malformed draft defensively: known fields only, each a short string', () => {
    const restored = restoreState(
      saved({
        registrationDraft: { ...draft, furthestStep: 9, firstName: 42, lastName: { x: 1 }, city: 'x'.repeat(500), ssn: '123456789', legal: { esign: true } },
      }),
      'en',
    );
    expect(restored.registrationDraft).toMatchObject({ furthestStep: 1, firstName: '42', lastName: '', legal: { esign: null, terms: null, cardholder3: null } });
    expect(restored.registrationDraft?.city).toHaveLength(100);
    expect(JSON.stringify(restored)).not.toContain('123456789');
    expect(restoreState(saved({ registrationDraft: 'draft' }), 'en').registrationDraft).toBeNull();
  });
});

describe('the failed-registration marker', () => {
  const failed: SessionContext = { ...context, accessToken: null, refreshToken: failedRegistrationMarker, registrationDraft: null };

  it('is kept standalone and embedded (it is not a token), so /register still shows the failure after a reload', () => {
    expect(persistedStateOf(failed).refreshToken).toBe(failedRegistrationMarker);
    expect(persistedStateOf(failed, { embedded: true }).refreshToken).toBe(failedRegistrationMarker);
    expect(restoreState(JSON.stringify(persistedStateOf(failed, { embedded: true })), 'en').refreshToken).toBe(failedRegistrationMarker);
  });

  it('never comes with an access token', () => {
    expect(persistedStateOf({ ...failed, accessToken: 'access-1' }).accessToken).toBeNull();
    expect(restoreState(saved({ accessToken: 'access-1', refreshToken: failedRegistrationMarker }), 'en').accessToken).toBeNull();
  });
});

describe('createStateSaver', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('writes a burst of changes once, after the current task, with the latest state', () => {
    const storage = { getItem: () => null, setItem: vi.fn() };
    const save = createStateSaver(localStorageWriter(storage), { embedded: false });
    save({ ...context, accessToken: 'a1' });
    save({ ...context, accessToken: 'a2' });
    save({ ...context, accessToken: 'a3', locale: 'en' });
    expect(storage.setItem).not.toHaveBeenCalled();

    vi.advanceTimersByTime(0);
    expect(storage.setItem).toHaveBeenCalledTimes(1);
    const [key, value] = storage.setItem.mock.calls[0]!;
    expect(key).toBe(storageKey);
    expect(JSON.parse(value as string)).toEqual(persistedStateOf({ ...context, accessToken: 'a3', locale: 'en' }));
    expect(value).not.toContain('snackbarMessage');
    expect(value).not.toContain('authReason');

    vi.runAllTimers();
    expect(storage.setItem).toHaveBeenCalledTimes(1);
  });

  it('writes again for a change after the previous write', () => {
    const storage = { getItem: () => null, setItem: vi.fn() };
    const save = createStateSaver(localStorageWriter(storage), { embedded: false });
    save({ ...context, accessToken: 'a1' });
    vi.runAllTimers();
    save({ ...context, accessToken: null, refreshToken: null });
    vi.runAllTimers();
    expect(storage.setItem).toHaveBeenCalledTimes(2);
    expect(JSON.parse(storage.setItem.mock.calls[1]![1] as string)).toMatchObject({ accessToken: null, refreshToken: null });
  });

  it('what it writes is restored as the same state', () => {
    const store = new Map<string, string>();
    const save = createStateSaver(localStorageWriter({ getItem: (key) => store.get(key) ?? null, setItem: (key, value) => void store.set(key, value) }), { embedded: false });
    save(context);
    vi.runAllTimers();
    expect(restoreState(store.get(storageKey) ?? null, 'en')).toEqual(inputOf(context));
  });

  it("a tab writes the tokens only when its own changed: one left signed out keeps another tab's session", () => {
    const store = new Map<string, string>();
    const storage = { getItem: (key: string) => store.get(key) ?? null, setItem: (key: string, value: string) => void store.set(key, value) };
    const signedOutTab = createStateSaver(localStorageWriter(storage), { embedded: false });
    const signedInTab = createStateSaver(localStorageWriter(storage), { embedded: false });
    const stored = () => restoreState(store.get(storageKey) ?? null, 'en');
    signedOutTab({ ...context, accessToken: null, refreshToken: null });
    vi.runAllTimers();
    signedInTab(context);
    vi.runAllTimers();

    // The signed-out tab changes its language: the other tab's session stays stored.
    signedOutTab({ ...context, accessToken: null, refreshToken: null, locale: 'es' });
    vi.runAllTimers();
    expect(stored()).toMatchObject({ accessToken: 'access-1', refreshToken: 'refresh-1', locale: 'es' });

    // Its own sign-out (tokens gone here) is written.
    signedInTab({ ...context, accessToken: null, refreshToken: null });
    vi.runAllTimers();
    expect(stored()).toMatchObject({ accessToken: null, refreshToken: null });
  });

  it('a tab writes the language only when it changed it: renewing its session keeps the one another tab chose', () => {
    const store = new Map<string, string>();
    const storage = { getItem: (key: string) => store.get(key) ?? null, setItem: (key: string, value: string) => void store.set(key, value) };
    const stored = () => restoreState(store.get(storageKey) ?? null, 'en');
    const first = createStateSaver(localStorageWriter(storage), { embedded: false });
    first({ ...context, locale: 'en' });
    vi.runAllTimers();
    const second = createStateSaver(localStorageWriter(storage), { embedded: false });

    second({ ...context, locale: 'es' });
    vi.runAllTimers();
    // The first tab, still in English, renews its session: its tokens are written, the language is not.
    first({ ...context, accessToken: 'access-2', refreshToken: 'refresh-2', locale: 'en' });
    vi.runAllTimers();
    expect(stored()).toMatchObject({ accessToken: 'access-2', refreshToken: 'refresh-2', locale: 'es' });

    // Its own choice of language is written.
    first({ ...context, accessToken: 'access-2', refreshToken: 'refresh-2', locale: 'en' });
    first({ ...context, accessToken: 'access-2', refreshToken: 'refresh-2', locale: 'es' });
    vi.runAllTimers();
    first({ ...context, accessToken: 'access-2', refreshToken: 'refresh-2', locale: 'en' });
    vi.runAllTimers();
    expect(stored().locale).toBe('en');
  });

  it("a tab signed out elsewhere does not write another tab's session as internal or not: that goes with the session", () => {
    const store = new Map<string, string>();
    const storage = { getItem: (key: string) => store.get(key) ?? null, setItem: (key: string, value: string) => void store.set(key, value) };
    const signedOutTab = createStateSaver(localStorageWriter(storage), { embedded: false });
    const signedInTab = createStateSaver(localStorageWriter(storage), { embedded: false });
    signedInTab({ ...context, isInternal: true });
    vi.runAllTimers();

    signedOutTab({ ...context, accessToken: null, refreshToken: null, isInternal: false });
    vi.runAllTimers();
    expect(restoreState(store.get(storageKey) ?? null, 'en')).toMatchObject({ refreshToken: 'refresh-1', isInternal: true });
  });

  it('embedded: hands the host the same fields without the tokens, once per burst', () => {
    const toHost = vi.fn();
    const save = createStateSaver(toHost, { embedded: true });
    save(context);
    save({ ...context, accessToken: 'a2', locale: 'en' });
    vi.runAllTimers();

    expect(toHost).toHaveBeenCalledTimes(1);
    const state = toHost.mock.calls[0]![0] as Record<string, unknown>;
    expect(state).toEqual({ ...persistedStateOf({ ...context, locale: 'en' }), accessToken: null, refreshToken: null });
    expect(JSON.stringify(state)).not.toMatch(/access-1|refresh-1|a2|snackbar|authReason/);
  });

  it('embedded: what the host keeps restores everything but the session', () => {
    const toHost = vi.fn();
    createStateSaver(toHost, { embedded: true })(context);
    vi.runAllTimers();
    const restored = restoreState(JSON.stringify(toHost.mock.calls[0]![0]), 'en');
    expect(restored).toEqual({ ...inputOf(context), accessToken: null, refreshToken: null });
  });
});
