/**
 * Time in a replayed path agrees with its generation (chartPaths.ts): a server's wait ends only where
 * the path says so, at the chart's `xstate.after.*` step, never because the machine was slow.
 *
 * The fake card API asks for waits longer than a test may run (`serverWaitSeconds`), and a replay
 * runs on Vitest's fake clock, which that step moves past the wait. Between steps the fake clock
 * follows real time, so short timers (a field's debounce, waitFor's own limit) behave as usual.
 */
import { vi } from 'vitest';

/**
 * What the fake server answers as `retryAfterSeconds`: 3 minutes, longer than a test may run (Vitest's
 * `testTimeout` in vite.config.ts, 120 s; raise this with it), so the fake clock, which follows real
 * time, cannot reach the end of a wait before the path's step passes it. Not the app's own 10 minutes
 * for an answer that names no wait (machines/shared/serverWait.ts), so the notices show the server's
 * figure was used.
 */
export const serverWaitSeconds = 180;
/** The wait in whole minutes, as the notices say it ("please wait 3 minutes"). */
export const serverWaitMinutes = serverWaitSeconds / 60;

/**
 * The fake clock follows real time a millisecond at a time (Vitest's default step is 20 ms). Testing
 * Library ends every async act (each click, each typed text, each waitFor) with a zero-delay timer, on
 * this clock too: at 20 ms steps each waited up to 20 ms of real time, half of a replay's run.
 * A step is taken only when the worker is free, so on a busy machine fake time falls behind real time:
 * the waits and their limits (waitFor's timeout, a field's debounce) are on this clock alike.
 */
export function startReplayClock(): void {
  vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'], shouldAdvanceTime: true, advanceTimeDelta: 1 });
}

export function stopReplayClock(): void {
  vi.useRealTimers();
}

/** The path's `xstate.after.*` step: the server's wait is over. */
export async function passServerWait(): Promise<void> {
  await vi.advanceTimersByTimeAsync(serverWaitSeconds * 1000);
}

/**
 * How long screens wait for an answer before they show their last-known copy meanwhile, in the flow
 * tests (AppContext `slowAnswerMs`; the app's own is 4 s): as long as a server's wait, so that only
 * the path's `xstate.after.slowAnswer.*` step passes it, however slow the machine.
 */
export const slowAnswerInTests = serverWaitSeconds * 1000;

/** The path's `xstate.after.slowAnswer.*` step: no answer yet, for longer than a screen waits. */
export async function passSlowAnswer(): Promise<void> {
  await vi.advanceTimersByTimeAsync(slowAnswerInTests);
}
