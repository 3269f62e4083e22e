/** Test aids for the last-known balance and activity (src/shared/offline/lastKnown.ts). */
import { lastKnownStore } from '../../src/shared/offline/lastKnown.ts';

/** A Storage in memory, as a phone's localStorage would be, for one test. */
export function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, String(value)),
  };
}

/** An access token shaped like the API's (a JWT) whose subject is `sub`; only its payload is read by the app. */
export const accessTokenFor = (sub: string) => `eyJhbGciOiJIUzI1NiJ9.${btoa(JSON.stringify({ sub })).replace(/=+$/, '')}.signature`;

/** A phone's storage already holding what `keep` puts there for `owner`, signed in then. */
export function storageWith(owner: string, keep: (store: ReturnType<typeof lastKnownStore>) => void): Storage {
  const storage = memoryStorage();
  keep(lastKnownStore(storage, () => owner));
  return storage;
}
