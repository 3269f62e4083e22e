/** Account lookups by email and phone, under the per-client lookup limit. */
import { eq, sql } from 'drizzle-orm';
import { normaliseEmail } from '../../../contract/rules.ts';
import type { FastifyRequest } from 'fastify';
import { deviceSubject, ipSubject, lookupPerDevicePolicy, lookupPerIpPolicy, type AttemptLimits, type RequestPolicy } from '../../attemptLimits.ts';
import type { Database } from '../../db/database.ts';
import { users } from '../../db/schema/index.ts';

/**
 * Counts an account lookup per IP, then per Device-UUID when one is sent (IP first: a client over
 * its IP limit adds no rows with made-up device ids). The wait in seconds when over a limit, else 0.
 */
export async function lookupWait(limits: AttemptLimits, request: FastifyRequest): Promise<number> {
  const perIp = await limits.countRequest(lookupPerIpPolicy, ipSubject(request.ip));
  if (!perIp.allowed) return perIp.retryAfterSeconds;
  const device = deviceSubject(request.headers['device-uuid']);
  const perDevice = device ? await limits.countRequest(lookupPerDevicePolicy, device) : perIp;
  return perDevice.allowed ? 0 : perDevice.retryAfterSeconds;
}

/**
 * The wait in seconds when the client is already over a lookup limit (per IP, or per Device-UUID when
 * one is sent), else 0; counts nothing. POST /register asks it before any work: a CIP_TAKEN answer
 * tells whether an identity has an account, so it is a lookup too (counted with lookupWait).
 */
export async function lookupWaitSoFar(limits: AttemptLimits, request: FastifyRequest): Promise<number> {
  const counters: [RequestPolicy, string][] = [[lookupPerIpPolicy, ipSubject(request.ip)]];
  const device = deviceSubject(request.headers['device-uuid']);
  if (device) counters.push([lookupPerDevicePolicy, device]);
  return limits.requestWait(counters);
}

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
