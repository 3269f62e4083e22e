/** Agreements (spec §3: E-Sign, Terms of use, Cardholder Agreement) a cardholder accepted. */
import { and, eq } from 'drizzle-orm';
import { agreed, agreementKinds, type AgreementKind, type Legal } from '../../../contract/identity/types.ts';
import type { Database } from '../../db/database.ts';
import { agreementAcceptances } from '../../db/schema/index.ts';

/** Records every agreement marked 'agreed' (the first acceptance's time is kept); null ones are left alone. */
export async function acceptAgreements(db: Database, userId: string, legal: Legal): Promise<void> {
  const kinds = agreementKinds.filter((kind) => legal[kind] === agreed);
  if (kinds.length === 0) return;
  await db
    .insert(agreementAcceptances)
    .values(kinds.map((kind) => ({ userId, kind })))
    .onConflictDoNothing();
}

export async function hasAccepted(db: Database, userId: string, kind: AgreementKind): Promise<boolean> {
  const [row] = await db
    .select({ id: agreementAcceptances.id })
    .from(agreementAcceptances)
    .where(and(eq(agreementAcceptances.userId, userId), eq(agreementAcceptances.kind, kind)));
  return row !== undefined;
}
