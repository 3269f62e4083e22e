/** Account lookups by email and phone, under the per-client lookup limit. */
import { eq, sql } from 'drizzle-orm';
import { normaliseEmail } from '../../../contract/rules.ts';
import type { FastifyRequest } from 'fastify';
import { lookupLimit, type AttemptLimits } from '../../attemptLimits.ts';
import { clientWait, clientWaitSoFar } from '../../shared/clientLimits.ts';
import type { Database } from '../../db/database.ts';
import { users } from '../../db/schema/index.ts';

/** Counts an account lookup per client (per IP, and per Device-UUID when sent): the wait in seconds when over the limit, else 0. */
export const lookupWait = (limits: AttemptLimits, request: FastifyRequest) => clientWait(limits, request, lookupLimit);

/**
 * The wait in seconds when the client is already over the lookup limit, else 0; counts nothing. POST
 * /register asks it before any work: a CIP_TAKEN answer tells whether an identity has an account, so
 * it is a lookup too (counted with lookupWait).
 */
export const lookupWaitSoFar = (limits: AttemptLimits, request: FastifyRequest) => clientWaitSoFar(limits, request, lookupLimit);

export async function emailInUse(db: Database, email: string): Promise<boolean> {
  const [user] = await db.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = lower(${normaliseEmail(email)})`);
  return user !== undefined;
}

/** `phone` as 10 digits. */
export async function phoneInUse(db: Database, phone: string): Promise<boolean> {
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.phone, phone));
  return user !== undefined;
}

/** What an SSN check needs of an account, by email (any case) or id; by email, the phone its proof is for. */
export async function ssnAccountByEmail(db: Database, email: string) {
  const [user] = await db
    .select({ id: users.id, email: users.email, ssnHash: users.ssnHash, phone: users.phone })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${normaliseEmail(email)})`);
  return user;
}

export async function ssnAccountById(db: Database, userId: string) {
  const [user] = await db.select({ id: users.id, email: users.email, ssnHash: users.ssnHash }).from(users).where(eq(users.id, userId));
  return user;
}
