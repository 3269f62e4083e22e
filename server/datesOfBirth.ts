/**
 * Dates of birth at rest: sealed like the SSN (server/sealedFields.ts), as `mm/dd/yyyy` (spec §5) in
 * users.dob. With the name and address it is what opens credit in someone's name, and the bank keeps it
 * for years after an account closes (its customer identification record).
 */
import { and, eq, isNotNull, not, like } from 'drizzle-orm';
import type { Database } from './db/database.ts';
import { users } from './db/schema/index.ts';
import { seal, sealedPrefix, unseal } from './sealedFields.ts';

/** The date as registered (surrounding spaces dropped), sealed for users.dob and bound to the user's id. */
export const sealDob = (dob: string, key: Buffer, userId: string): string => seal(dob.trim(), key, 'users.dob', userId);

/** The `mm/dd/yyyy` date, or an error when the value was altered, moved or sealed with another key. */
export const unsealDob = (stored: string, key: Buffer, userId: string): string => unseal(stored, key, 'users.dob', userId);

/**
 * Seals the dates of birth stored in clear (every one before 2026-12-02). Runs at every start, where the
 * migrations do (on PostgreSQL under the start-up lock); a row sealed meanwhile is left as it is.
 * Returns how many it sealed.
 */
export async function sealClearDatesOfBirth(db: Database, key: Buffer): Promise<number> {
  const clear = await db
    .select({ id: users.id, dob: users.dob })
    .from(users)
    .where(and(isNotNull(users.dob), not(like(users.dob, `${sealedPrefix}%`))));
  for (const { id, dob } of clear) {
    await db.update(users).set({ dob: sealDob(dob!, key, id) }).where(and(eq(users.id, id), eq(users.dob, dob!)));
  }
  return clear.length;
}
