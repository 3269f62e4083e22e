/** The last-known balance and activity are kept per cardholder, standalone only, and go with the session. */
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import answerSchemas from '../../contract/answerSchemas.json' with { type: 'json' };
import type { HomeAnswer } from '../../contract/home/types.ts';
import { keptSchemaVersion, lastKnownKey, lastKnownStore, noteTokenReceived, ownerOf, sessionLastKnown } from '../../src/shared/offline/lastKnown.ts';
import { tokenReceivedKey } from '../../src/shared/offline/forgetLastKnown.ts';
import { accessTokenFor, memoryStorage } from '../support/lastKnown.ts';

const home = { statusCode: 0, accountOverview: { balance: 4016 } } as unknown as HomeAnswer;
const at = new Date('2026-11-24T18:00:00Z');

describe('lastKnownStore', () => {
  it('keeps home data with the time it was fetched, for its owner only', () => {
    const storage = memoryStorage();
    let signedIn = 'user-a';
    const store = lastKnownStore(storage, () => signedIn);
    store.home.keep('user-a', home, at);
    expect(store.home.read('user-a')).toEqual({ data: home, fetchedAt: '2026-11-24T18:00:00.000Z' });
    expect(store.home.read(null)).toBeNull();
    expect(store.activity.read('user-a')).toBeNull();
    // Another cardholder on the same phone replaces the first one's copy entirely.
    signedIn = 'user-b';
    store.activity.keep('user-b', { statusCode: 0, transactions: [], nextCursor: null }, at);
    expect(store.activity.read('user-b')?.data.transactions).toEqual([]);
    expect(store.home.read('user-b')).toBeNull();
    expect(store.home.read('user-a')).toBeNull();
  });

  it("removes another cardholder's copy as soon as it is read for someone else, before anything is kept", () => {
    const storage = memoryStorage();
    lastKnownStore(storage, () => 'user-a').home.keep('user-a', home, at);
    expect(lastKnownStore(storage, () => 'user-b').home.read('user-b')).toBeNull();
    expect(storage.getItem(lastKnownKey)).toBeNull();
  });

  it('keeps no answer that arrives once its owner is no longer the one signed in', () => {
    const storage = memoryStorage();
    let signedIn: string | null = 'user-a';
    const store = lastKnownStore(storage, () => signedIn);
    // Signed out while the answer was on its way.
    signedIn = null;
    store.home.keep('user-a', home, at);
    expect(storage.length).toBe(0);
    // Someone else signed in meanwhile: the first one's answer is not written as theirs or as the first's.
    signedIn = 'user-b';
    store.home.keep('user-a', home, at);
    expect(storage.length).toBe(0);
  });

  it('keeps nothing without a storage (embedded) or without an owner', () => {
    const storage = memoryStorage();
    lastKnownStore(storage, () => null).home.keep(null, home, at);
    expect(storage.length).toBe(0);
    lastKnownStore(null, () => 'user-a').home.keep('user-a', home, at);
    expect(lastKnownStore(null, () => 'user-a').home.read('user-a')).toBeNull();
  });

  it('clears what it kept, and reads past a damaged copy', () => {
    const storage = memoryStorage();
    const store = lastKnownStore(storage, () => 'user-a');
    store.home.keep('user-a', home, at);
    store.clear();
    expect(storage.getItem(lastKnownKey)).toBeNull();
    storage.setItem(lastKnownKey, '{not json');
    expect(store.home.read('user-a')).toBeNull();
  });

  it("reads no copy an older release kept (another schemaVersion, or none), and keeps this release's in its place", () => {
    const storage = memoryStorage();
    const store = lastKnownStore(storage, () => 'user-a');
    for (const older of [{ owner: 'user-a' }, { schemaVersion: keptSchemaVersion - 1, owner: 'user-a' }]) {
      storage.setItem(lastKnownKey, JSON.stringify({ ...older, home: { data: { balance: 'an older shape' }, fetchedAt: at.toISOString() } }));
      expect(store.home.read('user-a')).toBeNull();
    }
    store.activity.keep('user-a', { statusCode: 0, transactions: [], nextCursor: null }, at);
    expect(store.home.read('user-a')).toBeNull();
    expect(JSON.parse(storage.getItem(lastKnownKey)!)).toMatchObject({ schemaVersion: keptSchemaVersion, owner: 'user-a' });
  });

  // Offline, a copy is shown as the answer it was: one kept in an older shape would fail to render.
  it('has a schemaVersion that changes with the kept answers: GET /home and GET /transactions (contract/answerSchemas.json)', () => {
    // Without the descriptions, and lists of names in any order: a comment on a field, or `required`
    // written in another order, does not change what is kept.
    const schemas = JSON.stringify([answerSchemas.getHome, answerSchemas.getTransactions], (key, value: unknown) =>
      key === 'description' ? undefined : Array.isArray(value) && value.every((item) => typeof item === 'string') ? [...value].sort() : value,
    );
    const shape = createHash('sha256').update(schemas).digest('hex').slice(0, 16);
    expect(
      { keptSchemaVersion, shape },
      'The kept answers changed shape: add one to keptSchemaVersion (src/shared/offline/lastKnown.ts), then write the new shape here',
    ).toEqual({ keptSchemaVersion: 3, shape: '81051651c4756a75' });
  });
});

describe('ownerOf', () => {
  it("reads an access token's subject, and nothing from anything else", () => {
    expect(ownerOf(accessTokenFor('3f6c2a1e-5b7d-4c8e-9a10-2b3c4d5e6f70'))).toBe('3f6c2a1e-5b7d-4c8e-9a10-2b3c4d5e6f70');
    expect(ownerOf('access-1')).toBeNull();
    expect(ownerOf(null)).toBeNull();
    expect(ownerOf('a.%%%.c')).toBeNull();
  });

  // A locked session (its access token expired) shows no copy, offline too: the phone cannot ask for the
  // unlock code without the network, and a shared phone must not show the account without it.
  it("reads no owner from an expired access token, by the phone's clock", () => {
    const token = (exp: number) => `eyJhbGciOiJIUzI1NiJ9.${btoa(JSON.stringify({ sub: 'user-a', exp })).replace(/=+$/, '')}.signature`;
    const now = Math.floor(Date.now() / 1000);
    expect(ownerOf(token(now + 60))).toBe('user-a');
    expect(ownerOf(token(now - 1))).toBeNull();
    const storage = memoryStorage();
    lastKnownStore(storage, () => 'user-a').home.keep('user-a', home, at);
    const { lastKnown, owner } = sessionLastKnown(storage, { getSnapshot: () => ({ context: { accessToken: token(now - 1) } }) });
    expect(owner).toBeNull();
    expect(lastKnown.home.read(owner)).toBeNull();
    // Unlocked again (a new token for the same cardholder), the copy is there.
    expect(sessionLastKnown(storage, { getSnapshot: () => ({ context: { accessToken: token(now + 900) } }) }).lastKnown.home.read('user-a')?.data).toEqual(home);
  });
});

describe("the access token's life, on a phone whose clock is off", () => {
  afterEach(() => vi.useRealTimers());
  // Issued by the server at 18:00 for 15 minutes.
  const issued = Date.parse('2026-12-03T18:00:00Z') / 1000;
  const token = `eyJhbGciOiJIUzI1NiJ9.${btoa(JSON.stringify({ sub: 'user-a', iat: issued, exp: issued + 900 })).replace(/=+$/, '')}.signature`;
  const phoneClock = (iso: string) => vi.useFakeTimers({ now: new Date(iso), toFake: ['Date'] });
  /** The phone gets the token now, by its clock: what it noted. */
  const received = (storage: Storage) => {
    noteTokenReceived(storage, token);
    return JSON.parse(storage.getItem(tokenReceivedKey)!);
  };

  it('counts the 15 minutes from when the phone got the token, by its own clock: 5 hours behind, the copy goes at the lock', () => {
    const storage = memoryStorage();
    phoneClock('2026-12-03T13:00:00Z');
    const noted = received(storage);
    expect(noted).toEqual({ sub: 'user-a', iat: issued, at: Date.parse('2026-12-03T13:00:00Z') });
    phoneClock('2026-12-03T13:14:59Z');
    expect(ownerOf(token, noted)).toBe('user-a');
    phoneClock('2026-12-03T13:15:00Z');
    // By the expiry alone it would live five more hours on this phone.
    expect(ownerOf(token)).toBe('user-a');
    expect(ownerOf(token, noted)).toBeNull();
  });

  it('an hour ahead, the copy is there from the start, for 15 minutes', () => {
    const storage = memoryStorage();
    phoneClock('2026-12-03T19:00:00Z');
    const noted = received(storage);
    expect(ownerOf(token)).toBeNull();
    expect(ownerOf(token, noted)).toBe('user-a');
    phoneClock('2026-12-03T19:15:00Z');
    expect(ownerOf(token, noted)).toBeNull();
  });

  it('a clock set back to before the token came shows nothing; a note for another token is not this one\'s', () => {
    const storage = memoryStorage();
    phoneClock('2026-12-03T18:00:00Z');
    const noted = received(storage);
    phoneClock('2026-12-03T17:59:00Z');
    expect(ownerOf(token, noted)).toBeNull();
    phoneClock('2026-12-03T18:20:00Z');
    expect(ownerOf(token, { ...noted, iat: issued - 1000, at: Date.now() })).toBeNull();
    // The screens read it from the phone's storage.
    expect(sessionLastKnown(storage, { getSnapshot: () => ({ context: { accessToken: token } }) }).owner).toBeNull();
  });
});

describe('the app and the last-known copy', () => {
  /** The app's maker, a fresh state, and the options both tests give it, over `storage`. */
  async function appParts(storage: Storage) {
    const { createApp } = await import('../../src/app/createApp.ts');
    const { standaloneHost } = await import('../../src/shared/host/host.ts');
    const { freshState } = await import('../../src/app/persistence.ts');
    const options = {
      host: standaloneHost(window),
      errors: { warning: () => {}, error: () => {} },
      guardsEnabled: true,
      analyticsTransport: { send: async () => {}, beacon: () => {} },
      storage,
    };
    return { createApp, freshState, options };
  }

  it('notes when each new access token arrives, and forgets it with the copy when the session ends', async () => {
    const storage = memoryStorage();
    const { createApp, freshState, options } = await appParts(storage);
    const app = createApp({ ...options, initial: freshState('en'), embedded: false });
    const iat = Math.floor(Date.now() / 1000);
    const access = `eyJhbGciOiJIUzI1NiJ9.${btoa(JSON.stringify({ sub: 'user-a', iat, exp: iat + 900 })).replace(/=+$/, '')}.signature`;
    const before = Date.now();
    app.services.session.send({ type: 'session.signedIn', access, refresh: 'refresh-1', isInternal: false });
    await vi.waitFor(() => expect(storage.getItem(tokenReceivedKey)).not.toBeNull());
    const noted = JSON.parse(storage.getItem(tokenReceivedKey) ?? 'null');
    expect(noted).toMatchObject({ sub: 'user-a', iat });
    expect(noted.at).toBeGreaterThanOrEqual(before);
    app.services.session.send({ type: 'user.signOut' });
    await vi.waitFor(() => expect(storage.getItem(tokenReceivedKey)).toBeNull());
  });

  it('gives views no storage when embedded, and forgets the copy when the session ends', async () => {
    const storage = memoryStorage();
    lastKnownStore(storage, () => 'user-a').home.keep('user-a', home, at);
    const { createApp, freshState, options } = await appParts(storage);
    const embedded = createApp({ ...options, initial: { ...freshState('en'), refreshToken: 'refresh-1', accessToken: 'access-1' }, embedded: true });
    expect(embedded.services.offlineStorage).toBeNull();
    expect(storage.getItem(lastKnownKey)).not.toBeNull();
    // A standalone app whose session has no refresh token (signed out): the copy goes.
    createApp({ ...options, initial: freshState('en'), embedded: false });
    expect(storage.getItem(lastKnownKey)).toBeNull();
  });
});
