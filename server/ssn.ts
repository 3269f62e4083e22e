/**
 * SSNs at rest (docs/security.md): sealed (server/sealedFields.ts: AES-256-GCM, the user id as associated
 * data), plus a keyed hash (HMAC-SHA256 under a second key) that finds an SSN already in use without
 * decrypting anything. The SSN in clear exists only in memory while a request is handled; it is never logged.
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import { digitsOf } from '../contract/rules.ts';
import { StatusCode } from '../contract/shared/statusCodes.ts';
import { type AttemptLimits, emailSubject, ssnPolicy } from './attemptLimits.ts';
import type { Database } from './db/database.ts';
import { ssnTokens } from './db/schema/index.ts';
import { seal, unseal } from './sealedFields.ts';
import { hashToken, keyedHash, randomToken, sameSecret } from './secrets.ts';
import { tooMany } from './shared/http.ts';

export type SsnKeys = { ssnEncryptionKey: Buffer; ssnHashKey: Buffer };

/** The 9 digits of an SSN typed with or without dashes. */
export const ssnDigits = (ssn: string): string => digitsOf(ssn);

/** The 9 digits sealed for users.ssn_encrypted, bound to the user's id. */
export const encryptSsn = (ssn: string, key: Buffer, userId: string): string => seal(ssnDigits(ssn), key, 'users.ssn', userId);

/** The 9 digits, or an error when the value was altered, moved to another user or made with another key. */
export const decryptSsn = (stored: string, key: Buffer, userId: string): string => unseal(stored, key, 'users.ssn', userId);

/** The keyed hash stored in users.ssn_hash (unique): equal SSNs, equal hashes, whatever the dashes. */
export function ssnHash(ssn: string, key: Buffer): string {
  return keyedHash(key, 'ssn', ssnDigits(ssn));
}

/** An ssnToken (proof of a verified SSN) lives 10 minutes and is spent once. */
export const ssnTokenTtlMinutes = 10;

/** `locked` with `afterWrong`: this SSN was compared, wrong, and was the last try (the wait starts with it). */
export type SsnCheck =
  | { kind: 'match' }
  | { kind: 'wrong'; attemptsLeft: number }
  | { kind: 'locked'; retryAfterSeconds: number; afterWrong?: true };

/**
 * Checks a typed SSN against an account's keyed hash, under the per-account wrong-SSN limit (5 → a
 * 10-minute wait, in the database). `account` is undefined for an unknown email: it is counted and
 * answered exactly like a wrong SSN, against the email, so answers do not tell accounts apart.
 */
export async function checkAccountSsn(
  limits: AttemptLimits,
  ssnHashKey: Buffer,
  account: { email: string; ssnHash: string | null } | undefined,
  email: string,
  ssn: string,
): Promise<SsnCheck> {
  const subject = emailSubject(account?.email ?? email);
  // The try is counted before the SSN is compared: a burst of parallel guesses gets at most the
  // limit compared, not every guess that arrives before the first failure is counted.
  const tried = await limits.reserveTry(ssnPolicy, subject);
  if (!tried.reserved) return { kind: 'locked', retryAfterSeconds: tried.retryAfterSeconds };
  const typed = ssnHash(ssn, ssnHashKey);
  if (account?.ssnHash && sameSecret(typed, account.ssnHash)) {
    await limits.reset(ssnPolicy, subject);
    return { kind: 'match' };
  }
  if (tried.attemptsLeft > 0) return { kind: 'wrong', attemptsLeft: tried.attemptsLeft };
  const wait = await limits.lockWhenSpent(ssnPolicy, subject);
  return wait > 0 ? { kind: 'locked', retryAfterSeconds: wait, afterWrong: true } : { kind: 'wrong', attemptsLeft: 0 };
}

/** 401 `{4, attemptsLeft}` for a wrong SSN; 429 `{201, retryAfterSeconds}` (and Retry-After) while locked. */
export function refuseSsn(reply: FastifyReply, check: Exclude<SsnCheck, { kind: 'match' }>) {
  if (check.kind === 'locked') return tooMany(reply, check.retryAfterSeconds);
  return reply.code(401).send({ statusCode: StatusCode.FAILED_VALIDATION, attemptsLeft: check.attemptsLeft });
}

/** A new ssnToken for a user and purpose: 256 random bits, only its SHA-256 stored. */
export async function issueSsnToken(db: Database, userId: string, purpose: SsnTokenPurpose): Promise<string> {
  const token = randomToken();
  await db
    .insert(ssnTokens)
    .values({ tokenHash: hashToken(token), userId, purpose, expiresAt: sql`now() + make_interval(mins => ${ssnTokenTtlMinutes})` });
  return token;
}

export type SsnTokenPurpose = (typeof ssnTokens.$inferSelect)['purpose'];

/** Spends a live ssnToken of this user and purpose, once: true for exactly one caller. */
export async function spendSsnToken(db: Database, token: string, userId: string, purpose: SsnTokenPurpose): Promise<boolean> {
  const spent = await db
    .update(ssnTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(ssnTokens.tokenHash, hashToken(token)),
        eq(ssnTokens.userId, userId),
        eq(ssnTokens.purpose, purpose),
        isNull(ssnTokens.usedAt),
        sql`${ssnTokens.expiresAt} > now()`,
      ),
    )
    .returning({ id: ssnTokens.id });
  return spent.length === 1;
}
