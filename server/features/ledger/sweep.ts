/**
 * The hold-expiry sweep: records expired holds (expirePendingTransfers) every `intervalMs`, so a hold
 * past its timeout is voided in the ledger even when no write on its account comes to do it. Balances
 * and writes already treat an expired hold as gone; the sweep makes the record match, and keeps the
 * expired-hold look-ups of reads and writes short.
 *
 * One sweep at a time: the next is timed from the end of the last, so a slow sweep never overlaps
 * itself. The timer is unref'd (it never keeps the process alive), `stop()` ends it and waits for a
 * sweep under way, and a failed sweep is reported (`report`) and the next one tried as planned: an
 * error never reaches the caller, nor stops the server.
 */
import type { Database } from '../../db/database.ts';
import { expirePendingTransfers } from './transfers.ts';

/** The clock the sweep reads and the timers it sets (tests pass their own; no real waiting). */
export type SweepClock = {
  now: () => Date;
  setTimeout: (run: () => void, ms: number) => { unref?: () => unknown };
  clearTimeout: (timer: { unref?: () => unknown }) => void;
};

const systemClock: SweepClock = {
  now: () => new Date(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
};

export type ExpirySweep = {
  /** Sweeps now (not waiting for the timer); answers how many holds it voided, or null when it failed (reported); 0 once stopped. */
  sweepNow: () => Promise<number | null>;
  /** No sweep after this; resolves once a sweep under way has ended. */
  stop: () => Promise<void>;
};

export function startExpirySweep(
  db: Database,
  options: {
    intervalMs: number;
    /** A sweep that failed: the error (logged by the server); the sweep carries on. */
    report: (error: unknown) => void;
    /** A sweep that voided holds: how many (for the log). */
    swept?: (voided: number) => void;
    clock?: SweepClock;
  },
): ExpirySweep {
  const { intervalMs, report, swept, clock = systemClock } = options;
  if (!Number.isFinite(intervalMs) || intervalMs <= 0) throw new Error(`The hold-expiry sweep needs a positive interval, not ${intervalMs} ms.`);
  let timer: ReturnType<SweepClock['setTimeout']> | null = null;
  let running: Promise<number | null> | null = null;
  let stopped = false;

  const sweep = (): Promise<number | null> => {
    if (stopped) return Promise.resolve(0);
    // One at a time: a call while one runs gets that one's answer.
    running ??= (async () => {
      try {
        const voided = await expirePendingTransfers(db, clock.now());
        if (voided > 0) swept?.(voided);
        return voided;
      } catch (error) {
        report(error);
        return null;
      } finally {
        running = null;
      }
    })();
    return running;
  };

  const schedule = () => {
    if (stopped) return;
    timer = clock.setTimeout(() => {
      timer = null;
      void sweep().then(schedule);
    }, intervalMs);
    timer.unref?.();
  };
  schedule();

  return {
    sweepNow: sweep,
    stop: async () => {
      stopped = true;
      if (timer) clock.clearTimeout(timer);
      timer = null;
      await running;
    },
  };
}
