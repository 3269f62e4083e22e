/**
 * The unlock code as proof of the cardholder (spec §4 unlock attempts): POST /refresh-tokens (unlock)
 * and POST /set-unlock-code (Manage account, the current code) check it here, against ONE counter of
 * wrong codes (users.unlock_failures), which a wrong SSN of "Forgot your unlock code?" also counts on
 * (countWrongUnlockAnswer). Each try is counted with a bounded update BEFORE the code is
 * compared, and a right code gives its try back: a burst of parallel guesses gets at most the limit
 * compared (counted after, every guess that arrived before the first count was compared). The wrong
 * code that reaches the limit ends every session of the cardholder, and from then on the code is not
 * even compared until /reset-unlock-code (with the SSN).
 */
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import { StatusCode } from '../contract/shared/statusCodes.ts';
import { unlockAttemptLimit } from './attemptLimits.ts';
import type { Database } from './db/database.ts';
import { users } from './db/schema/index.ts';
import { hashIsOutdated, hashSecret, verifySecret } from './secrets.ts';
import type { Sessions } from './sessions.ts';
import { signInRequired } from './shared/http.ts';

/** Takes a try before the code is compared: the attempts left if this one is wrong; null when none is left. */
async function reserveUnlockTry(db: Database, userId: string): Promise<number | null> {
  const [counted] = await db
    .update(users)
    .set({ unlockFailures: sql`${users.unlockFailures} + 1` })
    .where(sql`${users.id} = ${userId} and ${users.unlockFailures} < ${unlockAttemptLimit}`)
    .returning({ unlockFailures: users.unlockFailures });
  return counted ? unlockAttemptLimit - counted.unlockFailures : null;
}

/** Not once locked out: wrong codes compared beside a right one may have reached the limit meanwhile. */
const notLockedOut = sql`${users.unlockFailures} < ${unlockAttemptLimit}`;

/**
 * A right code's try, given back; not from a lockout that wrong codes compared beside it reached
 * meanwhile (only /reset-unlock-code ends that). A right code that took the last try itself is given
 * back whatever the count: no try can be taken after the last one.
 */
async function giveBackUnlockTry(db: Database, userId: string, tookTheLast: boolean): Promise<void> {
  await db
    .update(users)
    .set({ unlockFailures: sql`greatest(${users.unlockFailures} - 1, 0)` })
    .where(tookTheLast ? eq(users.id, userId) : and(eq(users.id, userId), notLockedOut));
}

/** After a right code: the wrong ones before it no longer count (a lockout reached meanwhile stays). */
export async function clearWrongUnlockCodes(db: Database, userId: string): Promise<void> {
  await db.update(users).set({ unlockFailures: 0 }).where(and(eq(users.id, userId), notLockedOut));
}

/**
 * A wrong answer of a session's holder other than the unlock code (the SSN of "Forgot your unlock
 * code?"): it counts toward the same lockout, so a session whose code is not known cannot guess the
 * SSN instead for as long as it lives. Answers the attempts left (0: every session has just ended),
 * or null during a lockout (nothing counted: the SSN is then the way out).
 */
export async function countWrongUnlockAnswer(db: Database, sessions: Sessions, userId: string): Promise<number | null> {
  const attemptsLeft = await reserveUnlockTry(db, userId);
  if (attemptsLeft === 0) await sessions.revokeUserFamilies(userId);
  return attemptsLeft;
}

/** Replaces an unlock code's hash made at an old scrypt cost, unless the code changed meanwhile. */
async function renewUnlockCodeHash(db: Database, userId: string, checked: string, renewed: string): Promise<void> {
  await db
    .update(users)
    .set({ unlockCodeHash: renewed })
    .where(and(eq(users.id, userId), eq(users.unlockCodeHash, checked)));
}

type User = typeof users.$inferSelect;

/**
 * - `right`: the code is the cardholder's (the caller clears the count once its work is done);
 * - `wrong`: counted; at `attemptsLeft: 0` every session of the cardholder has just ended;
 * - `lockedOut`: the limit was reached before (or its last tries are being compared); the code was not compared;
 * - `noCode`: no such cardholder, or one without an unlock code; the presented session has ended.
 */
export type UnlockCodeCheck =
  | { kind: 'right'; user: User }
  | { kind: 'wrong'; attemptsLeft: number }
  | { kind: 'lockedOut' }
  | { kind: 'noCode' };

/** The session presenting the code: an access token's claims or a refresh token's row. */
type Presenter = { userId: string; familyId: string };

export async function checkUnlockCodeOf(db: Database, sessions: Sessions, presenter: Presenter, unlockCode: string): Promise<UnlockCodeCheck> {
  const [user] = await db.select().from(users).where(eq(users.id, presenter.userId));
  if (!user?.unlockCodeHash) {
    await sessions.revokeFamily(presenter.familyId);
    return { kind: 'noCode' };
  }
  // Locked out: every session ended when the limit was reached; a session from a later sign-in is
  // kept, as /reset-unlock-code needs it, but the code is no longer accepted until it is reset.
  const attemptsLeft = await reserveUnlockTry(db, user.id);
  if (attemptsLeft === null) return { kind: 'lockedOut' };

  if (!(await verifySecret(unlockCode, user.unlockCodeHash))) {
    if (attemptsLeft === 0) await sessions.revokeUserFamilies(user.id);
    return { kind: 'wrong', attemptsLeft };
  }
  await giveBackUnlockTry(db, user.id, attemptsLeft === 0);
  if (hashIsOutdated(user.unlockCodeHash)) await renewUnlockCodeHash(db, user.id, user.unlockCodeHash, await hashSecret(unlockCode));
  return { kind: 'right', user };
}

/** 401 `{101, attemptsLeft}` for a wrong code; 401 `{104}` during a lockout or without a code. */
export function refuseUnlockCode(reply: FastifyReply, check: Exclude<UnlockCodeCheck, { kind: 'right' }>) {
  if (check.kind !== 'wrong') return signInRequired(reply);
  return reply.code(401).send({ statusCode: StatusCode.INVALID_REFRESH_CREDENTIALS, attemptsLeft: check.attemptsLeft });
}
