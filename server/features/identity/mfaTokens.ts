/**
 * An mfaToken proves a verified phone for 30 minutes, once, for one purpose: to POST /register (the
 * phone typed in the form, /verify-phone) or to a password reset's /verify/ssn and POST
 * /change-password (the phone on file, /verify/reset-code). A registration's token, whose code anyone
 * may ask for any phone without the per-email limits of a reset, never opens a reset.
 */
import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import { mfaTokens } from '../../db/schema/index.ts';
import { hashToken, randomToken } from '../../secrets.ts';

const mfaTokenTtlMinutes = 30;

export type MfaTokenPurpose = (typeof mfaTokens.$inferSelect)['purpose'];

export async function issueMfaToken(db: Database, phone: string, purpose: MfaTokenPurpose): Promise<string> {
  const mfaToken = randomToken();
  await db
    .insert(mfaTokens)
    .values({ tokenHash: hashToken(mfaToken), phone, purpose, expiresAt: sql`now() + make_interval(mins => ${mfaTokenTtlMinutes})` });
  return mfaToken;
}

/** The live mfaToken row for a presented token, phone and purpose, or undefined. */
export async function usableMfaToken(db: Database, token: string, phone: string, purpose: MfaTokenPurpose) {
  const [row] = await db
    .select({ id: mfaTokens.id, phone: mfaTokens.phone, purpose: mfaTokens.purpose })
    .from(mfaTokens)
    .where(and(eq(mfaTokens.tokenHash, hashToken(token)), isNull(mfaTokens.usedAt), sql`${mfaTokens.expiresAt} > now()`));
  return row && row.phone === phone && row.purpose === purpose ? { id: row.id, phone: row.phone } : undefined;
}

/** When a token was spent, as the database wrote it (text: a Date would drop its microseconds). */
export type Spend = string;

/**
 * Spends a token found by usableMfaToken, unless a parallel request has spent it (or it expired) since:
 * this spend when this one did, else null. `requestHash` names what spent it (a registration's
 * application, a password reset's change), so the same request sent again can be told from another.
 */
export async function spendMfaToken(db: Pick<Database, 'update'>, token: { id: string; phone: string }, requestHash: string | null = null): Promise<Spend | null> {
  const [spent] = await db
    .update(mfaTokens)
    .set({ usedAt: sql`now()`, applicationHash: requestHash })
    .where(and(eq(mfaTokens.id, token.id), eq(mfaTokens.phone, token.phone), isNull(mfaTokens.usedAt), sql`${mfaTokens.expiresAt} > now()`))
    .returning({ spend: sql<string>`${mfaTokens.usedAt}::text` });
  return spent?.spend ?? null;
}

/**
 * Whether this token, still live but for its spending, was spent by the request `requestHash` names,
 * for this phone and purpose: a request sent again after its answer was lost.
 */
export async function isSpentBy(db: Database, token: string, phone: string, purpose: MfaTokenPurpose, requestHash: string): Promise<boolean> {
  const [row] = await db
    .select({ id: mfaTokens.id })
    .from(mfaTokens)
    .where(
      and(
        eq(mfaTokens.tokenHash, hashToken(token)),
        eq(mfaTokens.phone, phone),
        eq(mfaTokens.purpose, purpose),
        isNotNull(mfaTokens.usedAt),
        eq(mfaTokens.applicationHash, requestHash),
        sql`${mfaTokens.expiresAt} > now()`,
      ),
    );
  return row !== undefined;
}

/**
 * A token spent for a partner's check that then failed (not answered): usable again until it expires.
 * Only this request's own spend, and none with a registration outcome: a request that fails late,
 * after its application was run again (registration.ts, reclaimLostToken), gives back nothing.
 */
export async function restoreMfaToken(db: Pick<Database, 'update'>, token: { id: string }, spend: Spend): Promise<void> {
  await db
    .update(mfaTokens)
    .set({ usedAt: null, applicationHash: null })
    .where(and(eq(mfaTokens.id, token.id), sql`${mfaTokens.usedAt}::text = ${spend}`, isNull(mfaTokens.registrationOutcome)));
}
