/** The unlock code's database work: wrong codes counted with a bounded update, so parallel guesses cannot pass the limit. */
import { eq, sql } from 'drizzle-orm';
import { normaliseEmail } from '../../../contract/rules.ts';
import { unlockAttemptLimit } from '../../attemptLimits.ts';
import type { Database } from '../../db/database.ts';
import { users } from '../../db/schema/index.ts';

export async function userById(db: Database, userId: string) {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  return user;
}

export async function userByEmail(db: Database, email: string) {
  const [user] = await db.select().from(users).where(sql`lower(${users.email}) = lower(${normaliseEmail(email)})`);
  return user;
}

export async function userByCompanionUuid(db: Database, uuid: string) {
  const [user] = await db.select().from(users).where(eq(users.providersUuid, uuid));
  return user;
}

/** Counts a wrong unlock code; the attempts left before the lockout. */
export async function countWrongUnlockCode(db: Database, userId: string): Promise<number> {
  const [counted] = await db
    .update(users)
    .set({ unlockFailures: sql`${users.unlockFailures} + 1` })
    .where(sql`${users.id} = ${userId} and ${users.unlockFailures} < ${unlockAttemptLimit}`)
    .returning({ unlockFailures: users.unlockFailures });
  return Math.max(0, unlockAttemptLimit - (counted?.unlockFailures ?? unlockAttemptLimit));
}

export async function clearWrongUnlockCodes(db: Database, userId: string): Promise<void> {
  await db.update(users).set({ unlockFailures: 0 }).where(eq(users.id, userId));
}

/** A new unlock code ends the lockout too; the cardholder's isInternal for the answer. */
/** Stores the new code and ends the lockout; the owner as the answer and the notice need it. */
export async function storeResetUnlockCode(db: Database, userId: string, unlockCodeHash: string) {
  const [user] = await db
    .update(users)
    .set({ unlockCodeHash, unlockFailures: 0 })
    .where(eq(users.id, userId))
    .returning({ isInternal: users.isInternal, phone: users.phone, email: users.email });
  return user;
}

export async function storePassword(db: Database, userId: string, passwordHash: string): Promise<void> {
  await db.update(users).set({ passwordHash }).where(eq(users.id, userId));
}
