/**
 * Whether the card API's last call got an answer at all (any HTTP status), or none: the request failed
 * on the way or timed out. A phone on Wi-Fi without internet says it is online (`navigator.onLine`),
 * so this is what tells a failure notice that the connection is the likely cause (RetryNotice).
 */
let answered = true;
const listeners = new Set<() => void>();

export function noteServerAnswered(now: boolean): void {
  if (now === answered) return;
  answered = now;
  for (const listener of listeners) listener();
}

export const serverAnswered = (): boolean => answered;

/**
 * Whether a failure is blamed on the connection (docs/decisions.md "A failure is blamed on the
 * connection only when the phone has none, or no answer came"): the phone says it is offline, or the
 * card API's last call got no answer at all. A call answered with an error (a gateway's 503 page) is
 * not the connection's fault.
 */
export const connectionSuspect = (): boolean => !(navigator.onLine && answered);

export function onServerAnsweredChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}
