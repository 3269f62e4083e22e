/**
 * The last-known balance and activity (issue: "offline, last known"): each time home data or the
 * newest activity page arrives it is kept with the time it was fetched, so with no network the screens
 * can still say what the account held then ("as of"). Standalone only: embedded, nothing about the
 * account is written to the phone's storage (the host keeps state, tokens never reach storage). Kept
 * per cardholder (the access token's subject), and cleared when the session ends (sign-out, sign-in
 * required), so the next person on a shared phone sees nothing.
 */
import type { TransactionsPage } from '../../../contract/activity/types.ts';
import type { HomeAnswer } from '../../../contract/home/types.ts';
import type { LastKnown } from '../../../machines/shared/lastKnown.ts';
import { accessTokenClaims } from '../../../machines/session/accessToken.ts';
import { forgetLastKnown, lastKnownKey, tokenReceivedKey } from './forgetLastKnown.ts';

export { lastKnownKey };
/**
 * The kept answers' shape: one more when GET /home's or GET /transactions' answer changes (a test
 * holds it to contract/answerSchemas.json), so a copy an older release kept is not read as this one's.
 */
export const keptSchemaVersion = 3;
type Kept = { schemaVersion: number; owner: string; home?: LastKnown<HomeAnswer>; activity?: LastKnown<TransactionsPage> };

/**
 * The access token (its subject and issue time) and when this phone got it, by the phone's own clock:
 * its 15 minutes are counted from then (`ownerOf`), not by comparing the server's expiry with a phone
 * clock that may be hours off (or set back to show a locked account's copy).
 */
export type TokenReceived = { sub: string; iat: number; at: number };

/** Notes that the phone got `accessToken` at `at` (its clock; createApp, as each new token arrives). */
export function noteTokenReceived(storage: Storage | null, accessToken: string, at: number = Date.now()): void {
  const { sub, iat } = accessTokenClaims(accessToken) ?? {};
  if (!storage || typeof sub !== 'string' || typeof iat !== 'number') return;
  try {
    storage.setItem(tokenReceivedKey, JSON.stringify({ sub, iat, at } satisfies TokenReceived));
  } catch {
    // A full storage only costs the offline view.
  }
}

/**
 * The user an access token was issued to (its `sub`), without checking it: only to keep data apart;
 * and only while it is live: an expired token is a locked session, whose copy is not shown until the
 * unlock code opens it again (offline, the phone cannot ask for it). Live is counted on the phone's
 * clock from when the phone got the token (`received`, for this token), for the token's own life
 * (exp − iat): a phone clock hours behind the server's no longer shows the copy for hours after the
 * lock, nor one ahead hide it from the start; a clock set back before the token came shows nothing.
 * A token the app never saw arrive (one saved before this was noted) is judged by its expiry.
 */
export function ownerOf(accessToken: string | null, received: TokenReceived | null = null): string | null {
  const { sub, iat, exp } = accessTokenClaims(accessToken) ?? {};
  if (typeof sub !== 'string') return null;
  const now = Date.now();
  if (received?.sub === sub && received.iat === iat && typeof exp === 'number') {
    return received.at <= now && now < received.at + (exp - received.iat) * 1000 ? sub : null;
  }
  // No exp is no expiry.
  return typeof exp === 'number' && exp * 1000 <= now ? null : sub;
}

/** When this phone got its access token, as noted (`noteTokenReceived`), or null. */
function tokenReceived(storage: Storage | null): TokenReceived | null {
  try {
    const noted = JSON.parse(storage?.getItem(tokenReceivedKey) ?? 'null') as Partial<TokenReceived> | null;
    return typeof noted?.sub === 'string' && typeof noted.iat === 'number' && typeof noted.at === 'number' ? (noted as TokenReceived) : null;
  } catch {
    return null;
  }
}

type Session = { getSnapshot: () => { context: { accessToken: string | null } } };
/** Who the session's access token says is signed in now (null when signed out or locked). */
const signedInOwner = (storage: Storage | null, session: Session) => ownerOf(session.getSnapshot().context.accessToken, tokenReceived(storage));

/** One kind of data kept: read it back for its owner, or keep a fresh copy. */
export type LastKnownSlot<T> = {
  read: (owner: string | null) => LastKnown<T> | null;
  keep: (owner: string | null, data: T, fetchedAt?: Date) => void;
};

export type LastKnownStore = { home: LastKnownSlot<HomeAnswer>; activity: LastKnownSlot<TransactionsPage>; clear: () => void };

/**
 * Without a storage (the app gives none when embedded) nothing is kept or read. `signedInAs` says who
 * is signed in now: an answer is kept only while its owner still is, so one arriving after sign-out, or
 * after someone else signed in, is not written. Reading for one cardholder removes another's copy.
 */
export function lastKnownStore(storage: Storage | null, signedInAs: () => string | null): LastKnownStore {
  const usable = storage !== null;
  const load = (): Kept | null => {
    try {
      const kept = JSON.parse((usable && storage.getItem(lastKnownKey)) || 'null') as Kept | null;
      return kept?.schemaVersion === keptSchemaVersion ? kept : null;
    } catch {
      return null;
    }
  };
  const slot = <K extends 'home' | 'activity'>(kind: K): LastKnownSlot<NonNullable<Kept[K]>['data']> => ({
    read(owner) {
      const kept = load();
      if (!owner || !kept) return null;
      if (kept.owner !== owner) {
        forgetLastKnown(storage);
        return null;
      }
      return kept[kind] ?? null;
    },
    keep(owner, data, fetchedAt = new Date()) {
      // A screen opened locked (no owner) is resumed only by an unlock of its own account: its answers are that account's.
      if (!usable || !(owner ??= signedInAs()) || signedInAs() !== owner) return;
      const kept = load();
      const mine: Kept = kept?.owner === owner ? kept : { schemaVersion: keptSchemaVersion, owner };
      try {
        storage.setItem(lastKnownKey, JSON.stringify({ ...mine, [kind]: { data, fetchedAt: fetchedAt.toISOString() } }));
      } catch {
        // A full storage only costs the offline view.
      }
    },
  });
  return {
    home: slot('home'),
    activity: slot('activity'),
    clear: () => forgetLastKnown(storage),
  };
}

/** The store as an account screen uses it: for whoever is signed in as it opens (`owner`), kept only while they still are. */
export function sessionLastKnown(storage: Storage | null, session: Session): { lastKnown: LastKnownStore; owner: string | null } {
  return { lastKnown: lastKnownStore(storage, () => signedInOwner(storage, session)), owner: signedInOwner(storage, session) };
}
