/**
 * The card API's data model, one file per feature (drizzle.config.ts lists them). Money is integer
 * cents; a balance is always the sum of its ledger. Secrets (passwords, unlock codes, refresh tokens,
 * texted codes, mfa tokens) are stored only as hashes; SSNs are encrypted (AES-256-GCM) with a keyed
 * hash beside them for uniqueness (server/ssn.ts). This index is the whole schema, as the database
 * handle's type needs it.
 */
export * from './analytics.ts';
export * from './cards.ts';
export * from './experiments.ts';
export * from './home.ts';
export * from './identity.ts';
export * from './ledger.ts';
export * from './session.ts';
export * from './shared.ts';
