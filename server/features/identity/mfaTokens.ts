/**
 * An mfaToken proves a verified phone for 30 minutes, once: to POST /register (the phone typed in the
 * form, /verify-phone) or to POST /change-password (the phone on file, /verify/reset-code).
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import { mfaTokens } from '../../db/schema/index.ts';
import { hashToken, randomToken } from '../../secrets.ts';

const mfaTokenTtlMinutes = 30;

export async function issueMfaToken(db: Database, phone: string): Promise<string> {
  const mfaToken = randomToken();
  await db
    .insert(mfaTokens)
    .values({ tokenHash: hashToken(mfaToken), phone, expiresAt: sql`now() + make_interval(mins => ${mfaTokenTtlMinutes})` });
  return mfaToken;
}

/** The live mfaToken row for a presented token and phone, or undefined. */
export async function usableMfaToken(db: Database, token: string, phone: string) {
  const [row] = await db
    .select({ id: mfaTokens.id, phone: mfaTokens.phone })
    .from(mfaTokens)
    .where(and(eq(mfaTokens.tokenHash, hashToken(token)), isNull(mfaTokens.usedAt), sql`${mfaTokens.expiresAt} > now()`));
  return row && row.phone === phone ? row : undefined;
}

/** Spends a token found by usableMfaToken, unless a parallel request has spent it (or it expired) since: true when this one did. */
export async function spendMfaToken(db: Pick<Database, 'update'>, token: { id: string; phone: string }): Promise<boolean> {
  const spent = await db
    .update(mfaTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(mfaTokens.id, token.id), eq(mfaTokens.phone, token.phone), isNull(mfaTokens.usedAt), sql`${mfaTokens.expiresAt} > now()`))
    .returning({ id: mfaTokens.id });
  return spent.length === 1;
}
