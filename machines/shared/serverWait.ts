/**
 * The waits the server imposes (too many codes, tries or sign-ins: spec §4's 10-minute wait). The
 * server says how long (`retryAfterSeconds`); charts keep the deadline in context and check again
 * when it passes, with the `untilRetry` delay.
 */
import type { MayBeTooMany } from '../../contract/shared/answers.ts';

export const defaultWaitSeconds = 600;

/** The deadline (ms since the epoch) an answer's `retryAfterSeconds` sets, 10 minutes when it says none. */
export const retryAtOf = (answer: MayBeTooMany | undefined): number =>
  Date.now() + Math.max(0, answer?.retryAfterSeconds ?? defaultWaitSeconds) * 1000;

/** `delays.untilRetry` for a chart whose context keeps `retryAt`. */
export const untilRetry = ({ context }: { context: { retryAt: number | null } }): number =>
  Math.max(0, (context.retryAt ?? 0) - Date.now());
