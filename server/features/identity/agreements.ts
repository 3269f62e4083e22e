/** Agreements (spec §3: E-Sign, Terms of use, Cardholder Agreement) a cardholder accepted, by version. */
import { and, eq, sql } from 'drizzle-orm';
import { agreed, agreementKinds, agreementVersions, type AgreementKind, type Legal } from '../../../contract/identity/types.ts';
import type { Database } from '../../db/database.ts';
import { agreementAcceptances } from '../../db/schema/index.ts';

/** Records the current version of every agreement marked 'agreed' (a newer version replaces the older one); null ones are left alone. */
export async function acceptAgreements(db: Database, userId: string, legal: Legal): Promise<void> {
  const kinds = agreementKinds.filter((kind) => legal[kind] === agreed);
  if (kinds.length === 0) return;
  await db
    .insert(agreementAcceptances)
    .values(kinds.map((kind) => ({ userId, kind, version: agreementVersions[kind] })))
    .onConflictDoUpdate({
      target: [agreementAcceptances.userId, agreementAcceptances.kind],
      set: { version: sql`excluded.version`, acceptedAt: sql`excluded.accepted_at` },
      // The same version again keeps its first acceptance time.
      setWhere: sql`${agreementAcceptances.version} <> excluded.version`,
    });
}

/** The last version of an agreement the cardholder accepted, and whether it is the current one. */
export async function acceptedVersion(db: Database, userId: string, kind: AgreementKind): Promise<{ agreed: boolean; version: string | null }> {
  const [row] = await db
    .select({ version: agreementAcceptances.version })
    .from(agreementAcceptances)
    .where(and(eq(agreementAcceptances.userId, userId), eq(agreementAcceptances.kind, kind)));
  return { agreed: row?.version === agreementVersions[kind], version: row?.version ?? null };
}
