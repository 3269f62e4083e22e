/** Core state persistence: what is saved, how saved state is read back, and when it is written. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionContext, SessionInput } from '../../machines/session.ts';
import {
  createStateSaver,
  localStorageWriter,
  persistedStateOf,
  restoreState,
  schemaVersion,
  storageKey,
} from '../../src/app/persistence.ts';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const context: SessionContext = {
  accessToken: 'access-1',
  refreshToken: 'refresh-1',
  fingerprint: 'fp-1',
  deviceUUID: 'device-1',
  isInternal: true,
  ebtAccountId: 'ebt-1',
  locale: 'es',
  snackbarMessage: 'signedOut',
  authReason: 'expired',
};

const inputOf = ({ snackbarMessage: _s, authReason: _a, ...input }: SessionContext): SessionInput => input;

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
      ['schemaVersion', 'accessToken', 'refreshToken', 'fingerprint', 'deviceUUID', 'isInternal', 'ebtAccountId', 'locale'].sort(),
    );
    expect(persisted).toEqual({ schemaVersion: 1, ...inputOf(context) });
  });

  it('never saves transient fields or anything else that is in the context', () => {
    const withExtra = { ...context, errorModalOpen: true, password: 'secret' } as SessionContext;
    const json = JSON.stringify(persistedStateOf(withExtra));
    expect(json).not.toContain('snackbarMessage');
    expect(json).not.toContain('authReason');
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
    const signedOut: SessionContext = { ...context, accessToken: null, refreshToken: null, isInternal: false, ebtAccountId: null, locale: 'en' };
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
    ['2', { schemaVersion: 2 }],
    ['"1" (a string)', { schemaVersion: '1' }],
    ['null', { schemaVersion: null }],
  ])('discards saved tokens and ids when schemaVersion is %s', (_name, fields) => {
    expectFresh(restoreState(saved(fields), 'en'), 'en');
  });

  it('discards saved tokens and ids when schemaVersion is missing', () => {
    const { schemaVersion: _v, ...withoutVersion } = persistedStateOf(context);
    expect(schemaVersion).toBe(1);
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

describe('createStateSaver', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('writes a burst of changes once, after the current task, with the latest state', () => {
    const storage = { setItem: vi.fn() };
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
    const storage = { setItem: vi.fn() };
    const save = createStateSaver(localStorageWriter(storage), { embedded: false });
    save({ ...context, accessToken: 'a1' });
    vi.runAllTimers();
    save({ ...context, accessToken: null });
    vi.runAllTimers();
    expect(storage.setItem).toHaveBeenCalledTimes(2);
    expect(JSON.parse(storage.setItem.mock.calls[1]![1] as string).accessToken).toBeNull();
  });

  it('what it writes is restored as the same state', () => {
    const store = new Map<string, string>();
    const save = createStateSaver(localStorageWriter({ setItem: (key, value) => void store.set(key, value) }), { embedded: false });
    save(context);
    vi.runAllTimers();
    expect(restoreState(store.get(storageKey) ?? null, 'en')).toEqual(inputOf(context));
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
