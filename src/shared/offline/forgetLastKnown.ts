/**
 * Where the last-known copy is kept, and when this phone got the access token it belongs to
 * (lastKnown.ts `noteTokenReceived`), and how the app forgets both when the session ends. Apart from
 * the store (lastKnown.ts), which start-up loads only once a token arrives: start-up loads only this.
 */
export const lastKnownKey = 'providers-card:last-known';
export const tokenReceivedKey = 'providers-card:token-received';

export const forgetLastKnown = (storage: Storage | null) => {
  storage?.removeItem(lastKnownKey);
  storage?.removeItem(tokenReceivedKey);
};
