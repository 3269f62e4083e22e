/** An mfaToken proves a verified phone to POST /register for 30 minutes, once. */
import { sql } from 'drizzle-orm';
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
