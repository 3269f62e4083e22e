/**
 * Attempt counters in the database (table attempt_limits), so they hold across restarts and across
 * several server instances: wrong sign-ins per email and wrong SSNs per account. Every change is a
 * bounded update: parallel requests cannot count past the limit, and nothing is counted while locked.
 * A lockout that has run out starts the count again.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from './db/database.ts';
import { attemptLimits } from './db/schema.ts';

export type AttemptScope = (typeof attemptLimits.$inferSelect)['scope'];
export type AttemptPolicy = { scope: AttemptScope; limit: number; lockoutMinutes: number };

/** 5 wrong sign-ins in a row → every sign-in waits 15 minutes. Counted per lower-cased email. */
export const signInPolicy: AttemptPolicy = { scope: 'sign-in', limit: 5, lockoutMinutes: 15 };
/** 5 wrong SSNs in a row → SSN checks of that account wait 10 minutes (spec §4's 10-minute wait). */
export const ssnPolicy: AttemptPolicy = { scope: 'ssn', limit: 5, lockoutMinutes: 10 };

/** Wrong unlock codes before a lockout that only an unlock-code reset (with the SSN) ends; counted in users.unlock_failures. */
export const unlockAttemptLimit = 5;

/** The subject of a per-email counter: emails are unique whatever their case. */
export const emailSubject = (email: string) => email.trim().toLowerCase();

/** Seconds as a whole number, at least 1, from milliseconds. */
export const wholeSeconds = (milliseconds: number) => Math.max(1, Math.ceil(milliseconds / 1000));

export type CountedFailure = { locked: false; attemptsLeft: number } | { locked: true; retryAfterSeconds: number };

export function createAttemptLimits(db: Database) {
  const row = (policy: AttemptPolicy, subject: string) =>
    and(eq(attemptLimits.scope, policy.scope), eq(attemptLimits.subject, subject));

  /** Seconds until the subject may try again; 0 when it is not locked. */
  async function waitSeconds(policy: AttemptPolicy, subject: string): Promise<number> {
    const [found] = await db
      .select({ lockMs: sql<number>`greatest(0, extract(epoch from (${attemptLimits.lockedUntil} - now())) * 1000)` })
      .from(attemptLimits)
      .where(row(policy, subject));
    const lockMs = Number(found?.lockMs ?? 0);
    return lockMs > 0 ? wholeSeconds(lockMs) : 0;
  }

  /** Counts one failure (bounded); the `limit`-th locks the subject for the policy's wait. */
  async function countFailure(policy: AttemptPolicy, subject: string): Promise<CountedFailure> {
    await db.insert(attemptLimits).values({ scope: policy.scope, subject }).onConflictDoNothing();
    const lockOver = sql`(${attemptLimits.lockedUntil} is not null and ${attemptLimits.lockedUntil} <= now())`;
    const failures = sql`case when ${lockOver} then 1 else ${attemptLimits.failures} + 1 end`;
    const [counted] = await db
      .update(attemptLimits)
      .set({
        failures,
        lockedUntil: sql`case when ${failures} >= ${policy.limit} then now() + make_interval(mins => ${policy.lockoutMinutes}) else null end`,
      })
      .where(
        sql`${row(policy, subject)}
          and (${attemptLimits.lockedUntil} is null or ${attemptLimits.lockedUntil} <= now())
          and (${attemptLimits.lockedUntil} is not null or ${attemptLimits.failures} < ${policy.limit})`,
      )
      .returning({ failures: attemptLimits.failures });
    if (counted && counted.failures < policy.limit) return { locked: false, attemptsLeft: policy.limit - counted.failures };
    return { locked: true, retryAfterSeconds: Math.max(1, await waitSeconds(policy, subject)) };
  }

  /** A success: the count starts again. */
  async function reset(policy: AttemptPolicy, subject: string): Promise<void> {
    await db.update(attemptLimits).set({ failures: 0, lockedUntil: null }).where(row(policy, subject));
  }

  return { waitSeconds, countFailure, reset };
}

export type AttemptLimits = ReturnType<typeof createAttemptLimits>;
