/**
 * Spent attempt counters are deleted (attemptLimits.ts deleteSpent, at start and hourly), so the
 * table does not grow with every email, device and address ever seen: only rows that mean exactly
 * what no row means go, so every limit answers as before.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createAttemptLimits,
  lookupPerDevicePolicy,
  signInPolicy,
  ssnPolicy,
  startingAgainPolicies,
  triesBeingCheckedSeconds,
  type AttemptLimits,
  type AttemptPolicy,
} from '../../server/attemptLimits.ts';
import { buildApp } from '../../server/app.ts';
import { attemptLimits } from '../../server/db/schema/index.ts';
import { clearAttemptLimits, startTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
let limits: AttemptLimits;

beforeAll(async () => {
  t = await startTestApp();
  limits = createAttemptLimits(t.db);
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await clearAttemptLimits(t.db);
});

const subjects = async () => (await t.db.select({ subject: attemptLimits.subject }).from(attemptLimits)).map((row) => row.subject).sort();

/** Moves a subject's lock or window `minutes` into the past (as if that much time had gone by). */
async function endedMinutesAgo(subject: string, minutes: number) {
  await t.db
    .update(attemptLimits)
    .set({ lockedUntil: sql`now() - make_interval(mins => ${minutes})` })
    .where(sql`${attemptLimits.subject} = ${subject}`);
}

/** One wrong try, as the server counts it: counted before its check, then locked when it was the last. */
async function wrongTry(policy: AttemptPolicy, subject: string) {
  const tried = await limits.reserveTry(policy, subject);
  if (tried.reserved) await limits.lockWhenSpent(policy, subject);
  return tried;
}

/** Five wrong sign-ins: a locked subject. */
async function lock(subject: string) {
  for (let i = 0; i < signInPolicy.limit; i += 1) await wrongTry(signInPolicy, subject);
}

describe('deleting spent attempt counters', () => {
  it('deletes ended locks and windows and counts reset to zero; keeps counts in a row and running locks', async () => {
    await lock('ended-lock');
    await endedMinutesAgo('ended-lock', 1);
    await limits.countRequest(lookupPerDevicePolicy, 'ended-window');
    await endedMinutesAgo('ended-window', 1);
    await wrongTry(ssnPolicy, 'reset-count');
    await limits.reset(ssnPolicy, 'reset-count');
    await wrongTry(signInPolicy, 'two-in-a-row');
    await wrongTry(signInPolicy, 'two-in-a-row');
    await lock('running-lock');
    await limits.countRequest(lookupPerDevicePolicy, 'running-window');

    expect(await limits.deleteSpent()).toBe(3);
    expect(await subjects()).toEqual(['running-lock', 'running-window', 'two-in-a-row']);
  });

  it('deletes a count whose last try is older than any wait that does not escalate; keeps an escalating one', async () => {
    await wrongTry(signInPolicy, 'old-typo');
    await lastTriedMinutesAgo('old-typo', 30);
    await wrongTry(signInPolicy, 'recent-typo');
    await lastTriedMinutesAgo('recent-typo', 29);
    await wrongTry(ssnPolicy, 'old-ssn');
    await lastTriedMinutesAgo('old-ssn', 60 * 24);

    expect(await limits.deleteSpent()).toBe(1);
    expect(await subjects()).toEqual(['old-ssn', 'recent-typo']);
  });

  it("keeps an account's own count after its wait (an escalating policy's): the count goes on", async () => {
    for (let i = 0; i < ssnPolicy.limit; i += 1) await wrongTry(ssnPolicy, 'ssn-ceiling');
    await endedMinutesAgo('ssn-ceiling', 1);
    await limits.deleteSpent();

    expect(await subjects()).toEqual(['ssn-ceiling']);
    // One try after the wait, and the next wait twice as long (10 → 20 minutes).
    expect(await wrongTry(ssnPolicy, 'ssn-ceiling')).toEqual({ reserved: true, tries: ssnPolicy.limit + 1, attemptsLeft: 0 });
    expect((await wrongTry(ssnPolicy, 'ssn-ceiling')).reserved).toBe(false);
    expect(Math.round((await limits.waitSeconds(ssnPolicy, 'ssn-ceiling')) / 60)).toBe(20);
  });

  it('leaves every limit answering as before', async () => {
    await lock('ended-lock');
    await endedMinutesAgo('ended-lock', 1);
    await wrongTry(signInPolicy, 'two-in-a-row');
    await wrongTry(signInPolicy, 'two-in-a-row');
    await lock('running-lock');
    await limits.deleteSpent();

    // An ended lock starts the count again, as it did with its row.
    expect(await wrongTry(signInPolicy, 'ended-lock')).toEqual({ reserved: true, tries: 1, attemptsLeft: 4 });
    expect(await wrongTry(signInPolicy, 'two-in-a-row')).toEqual({ reserved: true, tries: 3, attemptsLeft: 2 });
    const running = await wrongTry(signInPolicy, 'running-lock');
    expect(running.reserved).toBe(false);
    expect(await limits.waitSeconds(signInPolicy, 'running-lock')).toBeGreaterThan(14 * 60);
  });

  it('happens when the server starts', async () => {
    await lock('ended-lock');
    await endedMinutesAgo('ended-lock', 1);
    await lock('running-lock');

    const restarted = await buildApp(t.config, t.db, { logger: false });
    try {
      expect(await subjects()).toEqual(['running-lock']);
    } finally {
      await restarted.close();
    }
  });
});

/** Moves a subject's last counted try, and its last wrong one (when it has one), `minutes` into the past (`failedMinutes` for the wrong one). */
async function lastTriedMinutesAgo(subject: string, minutes: number, failedMinutes = minutes) {
  await t.db
    .update(attemptLimits)
    .set({
      lastTryAt: sql`now() - make_interval(mins => ${minutes})`,
      lastFailureAt: sql`case when ${attemptLimits.lastFailureAt} is null then null else now() - make_interval(mins => ${failedMinutes}) end`,
    })
    .where(sql`${attemptLimits.subject} = ${subject}`);
}

/** One right try, as the server counts it: counted before its check, then given back. */
async function rightTry(policy: AttemptPolicy, subject: string) {
  const tried = await limits.reserveTry(policy, subject);
  if (tried.reserved) await limits.giveBack(policy, subject);
  return tried;
}

describe('a try counted before its check (reserveTry)', () => {
  it('cannot refuse forever when a request died between its count and its check: a moment’s wait, then, a minute on, the count starts again', async () => {
    for (let i = 0; i < signInPolicy.limit; i += 1) expect((await limits.reserveTry(signInPolicy, 'stranded')).reserved).toBe(true);
    // The last try's request never came back (no giveBack, no lockWhenSpent): every try is taken, as
    // while the last tries of a burst are being checked. No lock starts on tries not known to be wrong.
    expect(await limits.reserveTry(signInPolicy, 'stranded')).toEqual({ reserved: false, retryAfterSeconds: triesBeingCheckedSeconds });
    expect(await limits.waitSeconds(signInPolicy, 'stranded')).toBe(0);
    // No try proved wrong; a minute after the last one counted, no check can still be running.
    await lastTriedMinutesAgo('stranded', 1);
    expect(await limits.reserveTry(signInPolicy, 'stranded')).toEqual({ reserved: true, tries: 1, attemptsLeft: signInPolicy.limit - 1 });
  });

  it("starts an escalating policy's stranded count's wait, so it cannot refuse forever", async () => {
    for (let i = 0; i < ssnPolicy.limit; i += 1) expect((await limits.reserveTry(ssnPolicy, 'stranded-ssn')).reserved).toBe(true);
    expect(await limits.reserveTry(ssnPolicy, 'stranded-ssn')).toEqual({ reserved: false, retryAfterSeconds: ssnPolicy.lockoutMinutes * 60 });
    expect(await limits.waitSeconds(ssnPolicy, 'stranded-ssn'), 'a lock with an end, so the wait runs out').toBeGreaterThan(0);
  });

  it('starts a count again once its last wrong try is a whole wait old (typos weeks apart are no burst); not an escalating one', async () => {
    for (let i = 0; i < signInPolicy.limit - 1; i += 1) await wrongTry(signInPolicy, 'typos');
    await lastTriedMinutesAgo('typos', signInPolicy.lockoutMinutes - 1);
    expect(await wrongTry(signInPolicy, 'typos'), 'a minute short of the wait: the fifth in a row').toEqual({ reserved: true, tries: 5, attemptsLeft: 0 });
    await clearAttemptLimits(t.db);

    for (let i = 0; i < signInPolicy.limit - 1; i += 1) await wrongTry(signInPolicy, 'typos');
    await lastTriedMinutesAgo('typos', signInPolicy.lockoutMinutes);
    expect(await wrongTry(signInPolicy, 'typos')).toEqual({ reserved: true, tries: 1, attemptsLeft: signInPolicy.limit - 1 });
    expect(await limits.waitSeconds(signInPolicy, 'typos')).toBe(0);

    // A right try between (another person behind the same IP signing in) does not keep the old typos counting.
    await clearAttemptLimits(t.db);
    for (let i = 0; i < signInPolicy.limit - 1; i += 1) await wrongTry(signInPolicy, 'typos');
    await lastTriedMinutesAgo('typos', 14);
    expect(await rightTry(signInPolicy, 'typos')).toMatchObject({ reserved: true });
    await lastTriedMinutesAgo('typos', 14, 28);
    expect(await wrongTry(signInPolicy, 'typos')).toEqual({ reserved: true, tries: 1, attemptsLeft: signInPolicy.limit - 1 });

    // A burst of tries still being checked keeps the count, however old its last wrong try.
    await clearAttemptLimits(t.db);
    await wrongTry(signInPolicy, 'burst');
    await lastTriedMinutesAgo('burst', 60);
    for (let i = 0; i < signInPolicy.limit; i += 1) expect((await limits.reserveTry(signInPolicy, 'burst')).reserved).toBe(true);
    expect(await limits.reserveTry(signInPolicy, 'burst')).toEqual({ reserved: false, retryAfterSeconds: triesBeingCheckedSeconds });

    // The SSN's count is of failures in a row until the right one, however far apart.
    for (let i = 0; i < ssnPolicy.limit - 1; i += 1) await wrongTry(ssnPolicy, 'ssn-typos');
    await lastTriedMinutesAgo('ssn-typos', 60 * 24 * 30);
    expect(await wrongTry(ssnPolicy, 'ssn-typos')).toEqual({ reserved: true, tries: ssnPolicy.limit, attemptsLeft: 0 });
    expect(await limits.waitSeconds(ssnPolicy, 'ssn-typos')).toBeGreaterThan(0);
  });
});

describe('the policies whose counts start again', () => {
  it('are every attempt policy that does not escalate (deleteSpent keeps their rows for the longest of their waits)', async () => {
    const exported = Object.values(await import('../../server/attemptLimits.ts')).filter(
      (value): value is AttemptPolicy => typeof value === 'object' && value !== null && 'lockoutMinutes' in value && 'limit' in value,
    );
    expect(exported.length).toBeGreaterThan(startingAgainPolicies.length);
    expect(new Set(exported.filter((policy) => !policy.escalates))).toEqual(new Set(startingAgainPolicies));
  });
});
