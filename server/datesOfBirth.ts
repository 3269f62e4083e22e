/**
 * Dates of birth at rest: sealed like the SSN (server/sealedFields.ts), as `mm/dd/yyyy` (spec §5) in
 * users.dob. With the name and address it is what opens credit in someone's name, and the bank keeps it
 * for years after an account closes (its customer identification record).
 */
import { and, asc, gt, isNotNull, like, not, sql } from 'drizzle-orm';
import type { Database } from './db/database.ts';
import { users } from './db/schema/index.ts';
import { seal, sealedPrefix, unseal } from './sealedFields.ts';

/** The date as registered (surrounding spaces dropped), sealed for users.dob and bound to the user's id. */
export const sealDob = (dob: string, key: Buffer, userId: string): string => seal(dob.trim(), key, 'users.dob', userId);

/** The `mm/dd/yyyy` date, or an error when the value was altered, moved or sealed with another key. */
export const unsealDob = (stored: string, key: Buffer, userId: string): string => unseal(stored, key, 'users.dob', userId);

/** Rows sealed per statement: one round trip each, however many there are, under the start-up lock. */
const batchSize = 500;

/**
 * Seals the dates of birth stored in clear (every one before 2026-12-02), in batches, each row once (by
 * id). Runs at every start, where the migrations do (on PostgreSQL under the start-up lock); a row
 * changed meanwhile is left as it is. Returns how many it found in clear.
 */
export async function sealClearDatesOfBirth(db: Database, key: Buffer): Promise<number> {
  let sealed = 0;
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const clear = await db
      .select({ id: users.id, dob: users.dob })
      .from(users)
      .where(and(gt(users.id, after), isNotNull(users.dob), not(like(users.dob, `${sealedPrefix}%`))))
      .orderBy(asc(users.id))
      .limit(batchSize);
    if (clear.length === 0) return sealed;
    const rows = sql.join(
      clear.map(({ id, dob }) => sql`(${id}::uuid, ${dob}, ${sealDob(dob!, key, id)})`),
      sql`, `,
    );
    await db.execute(sql`update users set dob = sealed.dob from (values ${rows}) as sealed(id, clear, dob)
      where users.id = sealed.id and users.dob = sealed.clear`);
    sealed += clear.length;
    after = clear.at(-1)!.id;
  }
}
