/** The session's user lookups and stored secrets (wrong unlock codes are counted in server/unlockCodes.ts). */
import { and, eq, sql } from 'drizzle-orm';
import { normaliseEmail } from '../../../contract/rules.ts';
import type { Database } from '../../db/database.ts';
import { users } from '../../db/schema/index.ts';

export async function userByEmail(db: Database, email: string) {
  const [user] = await db.select().from(users).where(sql`lower(${users.email}) = lower(${normaliseEmail(email)})`);
  return user;
}

export async function userByCompanionUuid(db: Database, uuid: string) {
  const [user] = await db.select().from(users).where(eq(users.providersUuid, uuid));
  return user;
}

/** Stores the new code and ends the lockout; the owner as the answer and the notice need it. */
export async function storeResetUnlockCode(db: Database, userId: string, unlockCodeHash: string) {
  const [user] = await db
    .update(users)
    // A change made before is not this code's: sent again, it is checked as any change is.
    .set({ unlockCodeHash, unlockCodeChange: null, unlockFailures: 0 })
    .where(eq(users.id, userId))
    .returning({ isInternal: users.isInternal, phone: users.phone, email: users.email });
  return user;
}

export async function storePassword(db: Pick<Database, 'update'>, userId: string, passwordHash: string): Promise<void> {
  await db.update(users).set({ passwordHash }).where(eq(users.id, userId));
}

/**
 * Replaces a password hash made at an old cost (or of the password as typed) with `renewed`, made from
 * the password just checked, unless the password changed meanwhile (a reset in parallel wins).
 */
export async function renewPasswordHash(db: Database, userId: string, checked: string, renewed: string): Promise<void> {
  await db
    .update(users)
    .set({ passwordHash: renewed })
    .where(and(eq(users.id, userId), eq(users.passwordHash, checked)));
}
