/** The signed-in cardholder's own record and unlock code. */
import { and, eq, lt } from 'drizzle-orm';
import type { User } from '../../../contract/account/types.ts';
import { unlockAttemptLimit } from '../../attemptLimits.ts';
import type { Database } from '../../db/database.ts';
import { users } from '../../db/schema/index.ts';

const oneYearMs = 365 * 24 * 60 * 60 * 1000;

function changedWithinAYear(at: Date | null): boolean {
  return at !== null && Date.now() - at.getTime() < oneYearMs;
}

export async function loadUser(db: Database, userId: string): Promise<User | null> {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) return null;
  return {
    fullName: [user.firstName, user.middleName, user.lastName].filter(Boolean).join(' '),
    email: user.email,
    phone: user.phone,
    address: { street1: user.street1, street2: user.street2, city: user.city, state: user.state, zip: user.zip },
    isInternal: user.isInternal,
    canUpdateAddress: !changedWithinAYear(user.addressChangedAt),
    canUpdatePhone: !changedWithinAYear(user.phoneChangedAt),
  };
}


/**
 * A new unlock code; earlier wrong codes no longer count. False during an unlock lockout: only
 * /reset-unlock-code (with the SSN) sets a new code then, a password alone does not.
 */
/** Stores the new code unless locked out meanwhile; the owner (for the notice) when stored. */
export async function storeUnlockCode(db: Database, userId: string, unlockCodeHash: string) {
  const [owner] = await db
    .update(users)
    .set({ unlockCodeHash, unlockFailures: 0 })
    .where(and(eq(users.id, userId), lt(users.unlockFailures, unlockAttemptLimit)))
    .returning({ phone: users.phone, email: users.email });
  return owner;
}
