/**
 * Where the last-known copy is kept, when this phone got the access token it belongs to, and how the
 * app notes the one and forgets both when the session ends. Apart from the store (lastKnown.ts), which
 * only the home and activity screens load: start-up loads only this.
 */
export const lastKnownKey = 'providers-card:last-known';
export const tokenReceivedKey = 'providers-card:token-received';

/** An access token's claims, read without checking it (the card API checks it): only to tell sessions apart. */
export function tokenClaims(accessToken: string | null): { sub?: unknown; iat?: unknown; exp?: unknown } | null {
  try {
    return JSON.parse(atob(accessToken!.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { sub?: unknown; iat?: unknown; exp?: unknown };
  } catch {
    return null;
  }
}

/**
 * The access token (its subject and issue time) and when this phone got it, by the phone's own clock:
 * its 15 minutes are counted from then (lastKnown.ts `ownerOf`), not by comparing the server's expiry
 * with a phone clock that may be hours off (or set back to show a locked account's copy).
 */
export type TokenReceived = { sub: string; iat: number; at: number };

export function noteTokenReceived(storage: Storage | null, accessToken: string): void {
  const { sub, iat } = tokenClaims(accessToken) ?? {};
  if (!storage || typeof sub !== 'string' || typeof iat !== 'number') return;
  try {
    storage.setItem(tokenReceivedKey, JSON.stringify({ sub, iat, at: Date.now() } satisfies TokenReceived));
  } catch {
    // A full storage only costs the offline view.
  }
}

export const forgetLastKnown = (storage: Storage | null) => {
  storage?.removeItem(lastKnownKey);
  storage?.removeItem(tokenReceivedKey);
};
