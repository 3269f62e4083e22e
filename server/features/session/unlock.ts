/** The session's user lookups and stored secrets (wrong unlock codes are counted in server/unlockCodes.ts). */
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { normaliseEmail } from '../../../contract/rules.ts';
import type { Database } from '../../db/database.ts';
import { ssnTokens, users } from '../../db/schema/index.ts';
import { hashToken, sameSecret } from '../../secrets.ts';

export async function userByEmail(db: Database, email: string) {
  const [user] = await db.select().from(users).where(sql`lower(${users.email}) = lower(${normaliseEmail(email)})`);
  return user;
}

export async function userByCompanionUuid(db: Database, uuid: string) {
  const [user] = await db.select().from(users).where(eq(users.providersUuid, uuid));
  return user;
}

/**
 * Stores the new code and ends the lockout, and keeps on the ssnToken that the reset spent the keyed
 * hash of that code (`unlockCodeReset`), in one transaction: a token that records a reset is one whose
 * code was stored. The owner as the answer and the notice need it.
 */
export async function storeResetUnlockCode(db: Database, userId: string, unlockCodeHash: string, ssnToken: string, unlockCodeReset: string) {
  return db.transaction(async (tx) => {
    const [user] = await tx
      .update(users)
      // A change made before is not this code's: sent again, it is checked as any change is.
      .set({ unlockCodeHash, unlockCodeChange: null, unlockFailures: 0 })
      .where(eq(users.id, userId))
      .returning({ isInternal: users.isInternal, phone: users.phone, email: users.email });
    await tx
      .update(ssnTokens)
      .set({ unlockCodeReset })
      .where(and(eq(ssnTokens.tokenHash, hashToken(ssnToken)), eq(ssnTokens.userId, userId)));
    return user;
  });
}

/**
 * Whether this live ssnToken of the user was spent by the reset to this code (`unlockCodeReset`, its
 * keyed hash), which stored it: the same reset sent again, its answer lost. The user's isInternal when so.
 */
export async function resetAnsweredBefore(db: Database, ssnToken: string, userId: string, unlockCodeReset: string) {
  const [row] = await db
    .select({ reset: ssnTokens.unlockCodeReset, isInternal: users.isInternal })
    .from(ssnTokens)
    .innerJoin(users, eq(users.id, ssnTokens.userId))
    .where(
      and(
        eq(ssnTokens.tokenHash, hashToken(ssnToken)),
        eq(ssnTokens.userId, userId),
        eq(ssnTokens.purpose, 'reset-unlock-code'),
        isNotNull(ssnTokens.usedAt),
        sql`${ssnTokens.expiresAt} > now()`,
      ),
    );
  return row?.reset != null && sameSecret(row.reset, unlockCodeReset) ? { isInternal: row.isInternal } : null;
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
