/** An answer as it was at `fetchedAt` (ISO 8601): what home and activity show, with that time, when no answer comes. */
export type LastKnown<T> = { data: T; fetchedAt: string };

/**
 * How long a screen waits for the card API before it shows its last-known copy, with its time, while
 * the call goes on (as the page's own fallback: public/sw.js `slowNetworkMs`): a weak signal can hold an
 * answer up to the API's two minutes (spec §7's timeout). The app gives it to the charts (AppContext
 * `slowAnswerMs`), the flow tests a longer one.
 */
export const slowAnswerMs = 4_000;
