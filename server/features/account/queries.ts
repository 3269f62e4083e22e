/** The signed-in cardholder's own record and unlock code. */
import { and, eq, lt } from 'drizzle-orm';
import type { User } from '../../../contract/account/types.ts';
import { unlockAttemptLimit } from '../../attemptLimits.ts';
import type { Database } from '../../db/database.ts';
import { users } from '../../db/schema/index.ts';
import { sameSecret } from '../../secrets.ts';

/**
 * Changed less than a year ago (spec §9: an address or phone change once a year): the same UTC date
 * and time a year on opens the next change, across a leap day too (365 days fell a day short); a
 * change on 29 February (UTC) opens the next on 1 March.
 */
export function changedWithinAYear(at: Date | null, now: Date = new Date()): boolean {
  if (at === null) return false;
  const yearOn = new Date(at);
  yearOn.setUTCFullYear(at.getUTCFullYear() + 1);
  return now < yearOn;
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
 * A new unlock code, with the keyed hash of the change that set it; earlier wrong codes no longer
 * count. Not stored during an unlock lockout (only /reset-unlock-code, with the SSN, sets a new code
 * then; a password alone does not). The owner (for the notice) when stored.
 */
export async function storeUnlockCode(db: Database, userId: string, unlockCodeHash: string, unlockCodeChange: string) {
  const [owner] = await db
    .update(users)
    .set({ unlockCodeHash, unlockCodeChange, unlockFailures: 0 })
    .where(and(eq(users.id, userId), lt(users.unlockFailures, unlockAttemptLimit)))
    .returning({ phone: users.phone, email: users.email });
  return owner;
}

/**
 * Whether this change (`unlockCodeChange`, its keyed hash) is the one that set the code the
 * cardholder has now, outside a lockout: then it was made already, and its answer got lost.
 */
export async function isLastUnlockCodeChange(db: Database, userId: string, unlockCodeChange: string): Promise<boolean> {
  const [user] = await db
    .select({ last: users.unlockCodeChange })
    .from(users)
    .where(and(eq(users.id, userId), lt(users.unlockFailures, unlockAttemptLimit)));
  return user?.last != null && sameSecret(user.last, unlockCodeChange);
}
