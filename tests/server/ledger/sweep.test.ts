/**
 * The hold-expiry sweep (server/features/ledger/sweep.ts) on a clock and timers the test drives: it
 * records expired holds at each interval, one sweep at a time, reports a failure and carries on, never
 * keeps the process alive, and stops. No real waiting: the test fires the timers itself.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from '../../../server/config.ts';
import type { Database } from '../../../server/db/database.ts';
import {
  balances,
  createTransfer,
  expirePendingTransfers,
  invariantReport,
  startExpirySweep,
  type SweepClock,
  systemLedgerAccounts,
} from '../../../server/features/ledger/index.ts';
import { at, type LedgerDatabase, newCardholder, pgliteLedgerDatabase } from './helpers.ts';

type Timer = { run: () => void; ms: number; unrefed: boolean; unref: () => void };

/** A clock at `at(seconds)` and the timers set on it, fired only when the test says so. */
function manualClock(seconds: number) {
  let now = at(seconds);
  const timers: Timer[] = [];
  const clock: SweepClock = {
    now: () => now,
    setTimeout: (run, ms) => {
      const timer: Timer = { run, ms, unrefed: false, unref: () => (timer.unrefed = true) };
      timers.push(timer);
      return timer;
    },
    clearTimeout: (timer) => {
      const index = timers.indexOf(timer as Timer);
      if (index >= 0) timers.splice(index, 1);
    },
  };
  return {
    clock,
    timers,
    /** Moves the clock on and fires the one timer set (as the event loop would once its time came). */
    fire(toSeconds: number) {
      expect(timers).toHaveLength(1);
      const [timer] = timers.splice(0, 1);
      now = at(toSeconds);
      timer!.run();
    },
  };
}

/** Lets queued promise callbacks run (no timer involved). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('the hold-expiry sweep', () => {
  let database: LedgerDatabase;
  let db: Database;
  let cardholder: string;

  beforeAll(async () => {
    database = await pgliteLedgerDatabase();
    db = database.db;
    cardholder = await newCardholder(db);
    const deposit = await createTransfer(db, {
      id: randomUUID(),
      debit: systemLedgerAccounts.settlement,
      credit: cardholder,
      amountCents: 10_000,
      kind: 'deposit',
      phase: 'posted',
      now: at(0),
    });
    expect(deposit.result).toBe('created');
  });
  afterAll(async () => {
    if (db) expect(await invariantReport(db)).toMatchObject({ ok: true, problems: [] });
    await database?.close();
  });

  const hold = async (seconds: number, timeoutSeconds: number) => {
    const answer = await createTransfer(db, {
      id: randomUUID(),
      debit: cardholder,
      credit: systemLedgerAccounts.settlement,
      amountCents: 1_000,
      kind: 'purchase',
      phase: 'pending',
      timeoutSeconds,
      now: at(seconds),
    });
    expect(answer.result).toBe('created');
  };
  /** The cardholder's pending debits as recorded (read at a time before any hold expires: a sweep's void lowers them). */
  const recordedPending = async () => (await balances(db, cardholder, at(0)))?.pendingDebitsCents;

  it('voids the holds expired at each interval, on the clock it is given, with its timer unref’d', async () => {
    await hold(10, 60); // expires at 70
    await hold(10, 600); // expires at 610
    expect(await recordedPending()).toBe(2_000);
    const { clock, timers, fire } = manualClock(20);
    const voided: number[] = [];
    const errors: unknown[] = [];
    const sweep = startExpirySweep(db, { intervalMs: 30_000, clock, report: (error) => errors.push(error), swept: (n) => voided.push(n) });
    expect(timers).toMatchObject([{ ms: 30_000, unrefed: true }]);

    fire(50); // nothing expired yet
    expect(await sweep.sweepNow()).toBe(0);
    await settle();
    expect(timers).toMatchObject([{ ms: 30_000, unrefed: true }]);
    expect(await recordedPending()).toBe(2_000);

    fire(80); // the first hold expired at 70
    await sweep.sweepNow();
    await settle();
    expect(voided).toEqual([1]);
    expect(await recordedPending()).toBe(1_000);

    fire(700); // and the second at 610
    await sweep.sweepNow();
    await settle();
    expect(voided).toEqual([1, 1]);
    expect(await recordedPending()).toBe(0);
    expect(errors).toEqual([]);

    await sweep.stop();
    expect(timers).toEqual([]);
    expect(await sweep.sweepNow()).toBe(0);
  });

  it('reports a failed sweep instead of throwing, and sweeps again at the next interval', async () => {
    const { clock, timers, fire } = manualClock(0);
    let failing = true;
    const failure = new Error('the database is away');
    // Every use of the database throws while `failing`.
    const flaky = new Proxy(db, {
      get: (target, property, receiver) => {
        if (failing) throw failure;
        const value: unknown = Reflect.get(target, property, receiver);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    const errors: unknown[] = [];
    const sweep = startExpirySweep(flaky, { intervalMs: 1_000, clock, report: (error) => errors.push(error) });
    fire(1);
    expect(await sweep.sweepNow()).toBeNull();
    await settle();
    expect(errors).toEqual([failure]);
    expect(timers).toHaveLength(1);

    failing = false;
    fire(2);
    expect(await sweep.sweepNow()).toBe(0);
    expect(errors).toHaveLength(1);
    await sweep.stop();
  });

  it('runs one sweep at a time, and stop waits for the one under way', async () => {
    const { clock, timers, fire } = manualClock(0);
    // PGlite has one session: while this transaction is open, the sweep's queries wait for it.
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const busy = db.transaction(async () => {
      await gate;
    });
    const sweep = startExpirySweep(db, { intervalMs: 1_000, clock, report: (error) => expect.fail(String(error)) });
    fire(1);
    const first = sweep.sweepNow();
    expect(sweep.sweepNow()).toBe(first);
    let stopped = false;
    const stopping = sweep.stop().then(() => (stopped = true));
    await settle();
    expect(stopped).toBe(false);
    release();
    await busy;
    await stopping;
    expect(await first).toBe(0);
    expect(timers).toEqual([]);
  });

  it('records the other expired holds when one cannot be, then reports that one', async () => {
    const other = await newCardholder(db);
    await createTransfer(db, { id: randomUUID(), debit: systemLedgerAccounts.settlement, credit: other, amountCents: 5_000, kind: 'deposit', phase: 'posted', now: at(0) });
    const holdOf = async (debit: string, seconds: number) => {
      const answer = await createTransfer(db, {
        id: randomUUID(),
        debit,
        credit: systemLedgerAccounts.settlement,
        amountCents: 1_000,
        kind: 'purchase',
        phase: 'pending',
        timeoutSeconds: 60,
        now: at(seconds),
      });
      expect(answer.result).toBe('created');
    };
    // The oldest expired hold is on an account whose row no longer matches its transfers (as a bad
    // hand fix would leave it): recording its expiry breaks a CHECK. The later one is on a sound account.
    await holdOf(other, 1_000);
    await holdOf(cardholder, 1_001);
    await db.execute(sql`update ledger_accounts set debits_pending = ${0} where id = ${other}`);
    await expect(expirePendingTransfers(db, at(2_000))).rejects.toThrow('1 expired hold could not be recorded (1 was)');
    expect(await recordedPending()).toBe(0);
    // Mended, the next sweep records it.
    await db.execute(sql`update ledger_accounts set debits_pending = ${1_000} where id = ${other}`);
    expect(await expirePendingTransfers(db, at(2_000))).toBe(1);
  });

  it('refuses an interval that is not a positive number of milliseconds', () => {
    const { clock } = manualClock(0);
    for (const intervalMs of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => startExpirySweep(db, { intervalMs, clock, report: () => {} })).toThrow(/positive interval/);
    }
  });
});

describe('HOLD_EXPIRY_SWEEP_SECONDS', () => {
  it('sets the interval in whole seconds: 60 when unset, 0 for no sweep, anything else refused', () => {
    expect(readConfig({}).holdExpirySweepSeconds).toBe(60);
    expect(readConfig({ HOLD_EXPIRY_SWEEP_SECONDS: '5' }).holdExpirySweepSeconds).toBe(5);
    expect(readConfig({ HOLD_EXPIRY_SWEEP_SECONDS: '0' }).holdExpirySweepSeconds).toBe(0);
    for (const value of ['-1', '1.5', 'soon', '99999999']) {
      expect(() => readConfig({ HOLD_EXPIRY_SWEEP_SECONDS: value }), value).toThrow(ConfigError);
    }
  });
});
