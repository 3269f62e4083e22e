/**
 * Where the last-known copy is kept, and how the app forgets it when the session ends. Apart from the
 * store (lastKnown.ts), which only the home and activity screens load: start-up loads only this.
 */
export const lastKnownKey = 'providers-card:last-known';

export const forgetLastKnown = (storage: Storage | null) => storage?.removeItem(lastKnownKey);
