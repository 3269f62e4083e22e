/** The session's user lookups and stored secrets (wrong unlock codes are counted in server/unlockCodes.ts). */
import { eq, sql } from 'drizzle-orm';
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
