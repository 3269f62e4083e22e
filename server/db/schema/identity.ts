/** The cardholder's identity: the user row, accepted agreements, and the single-use proofs of a verified phone (mfaTokens) and SSN (ssnTokens). */
import { agreementKinds } from '../../../contract/identity/types.ts';
import { sql } from 'drizzle-orm';
import { boolean, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/**
 * One account per residential address: street1 + street2 lower-cased with every run of other
 * characters than a-z and 0-9 made one space, and the 5-digit ZIP. Migration 0002 fills existing rows
 * with the same rule in SQL. `1420 N. Blackstone Ave, Apt #12` and `1420 n blackstone ave apt 12` match.
 */
export function addressKeyOf(address: { street1: string; street2: string; zip: string }): string {
  const street = `${address.street1} ${address.street2}`.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
  return `${street}|${address.zip.replace(/\D/g, '').slice(0, 5)}`;
}

export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull(),
  firstName: text('first_name').notNull(),
  middleName: text('middle_name'),
  lastName: text('last_name').notNull(),
  /** Date of birth, `mm/dd/yyyy` as registered (spec §5), sealed like the SSN (server/datesOfBirth.ts). */
  dob: text('dob'),
  /** AES-256-GCM, `aesgcm$<iv>$<ciphertext>$<tag>`, the user id as associated data (server/sealedFields.ts). */
  ssnEncrypted: text('ssn_encrypted'),
  /** HMAC-SHA256 of the 9 digits under SSN_HASH_KEY: finds an SSN already used without decrypting. */
  ssnHash: text('ssn_hash').unique('users_ssn_hash_unique'),
  /** 10 digits, unique among users. */
  phone: text('phone').notNull(),
  street1: text('street1').notNull(),
  street2: text('street2').notNull().default(''),
  city: text('city').notNull(),
  state: text('state').notNull(),
  zip: text('zip').notNull(),
  /** `addressKeyOf` the legal address: one account per address. */
  addressKey: text('address_key').unique('users_address_key_unique'),
  /** The EBT account id the companion app linked at registration (EBT-Account-ID header), upper case. */
  ebtAccountId: text('ebt_account_id').unique('users_ebt_account_id_unique'),
  /** Null until the cardholder sets one (registration has no password; reset-password sets it). */
  passwordHash: text('password_hash'),
  unlockCodeHash: text('unlock_code_hash'),
  /** Wrong unlock codes since the last success; the lockout is enforced from this row. */
  unlockFailures: integer('unlock_failures').notNull().default(0),
  /**
   * A keyed hash of the last change of the unlock code in the app (its current and new codes), while
   * that new code is the code: the same change sent again, its answer lost, is answered as done
   * (server/features/account/index.ts). Null after a reset with the SSN.
   */
  unlockCodeChange: text('unlock_code_change'),
  isInternal: boolean('is_internal').notNull().default(false),
  /** Sign-in needs a code texted to `phone` after the password (spec §8 MFA_REQUIRED). */
  mfaRequired: boolean('mfa_required').notNull().default(false),
  /** The companion benefits app's user uuid: links that app's sign-in to this cardholder. */
  providersUuid: text('providers_uuid').unique(),
  registrationWave: text('registration_wave'),
  addressChangedAt: timestamp('address_changed_at', { withTimezone: true }),
  phoneChangedAt: timestamp('phone_changed_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  uniqueIndex('users_email_unique').on(sql`lower(${t.email})`),
  uniqueIndex('users_phone_unique').on(t.phone),
]);

/** Agreements a cardholder accepted (spec §3: E-Sign, Terms of use, Cardholder Agreement); the first acceptance is kept. */
export const agreementAcceptances = pgTable('agreement_acceptances', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id').notNull().references(() => users.id),
  kind: text('kind', { enum: agreementKinds }).notNull(),
  /** The version accepted (contract/identity/types.ts agreementVersions); acceptances before versions were kept had the first. */
  version: text('version').notNull().default('2026-11-01'),
  acceptedAt: timestamp('accepted_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [uniqueIndex('agreement_acceptances_user_kind_unique').on(t.userId, t.kind)]);

/** Proof of a verified phone (server/features/identity/mfaTokens.ts): random, stored hashed, single use, 30 minutes, bound to the phone and its purpose. */
export const mfaTokens = pgTable('mfa_tokens', {
  id: uuid('id').primaryKey().defaultRandom(),
  tokenHash: text('token_hash').notNull().unique(),
  phone: text('phone').notNull(),
  /** What the phone was verified for: a registration's phone (/verify-phone) or a password reset's (/verify/reset-code). */
  purpose: text('purpose', { enum: ['register', 'reset-password'] }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  /**
   * A keyed hash of the request that spent this token, so the same request sent again, its answer lost,
   * is answered as the first. A registration's application, with its outcome once known (the cardholder
   * it opened, a denial, an identity already taken: server/features/identity/registration.ts). A
   * password reset's change (email, SSN, new password), written in the transaction that stores the new
   * password and ends the sessions, so on a `reset-password` token it means the change was made
   * (server/features/session/passwordReset.ts).
   */
  applicationHash: text('application_hash'),
  registrationOutcome: text('registration_outcome', { enum: ['opened', 'denied', 'taken'] }),
  registeredUserId: uuid('registered_user_id').references(() => users.id),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Proof of a verified SSN (spec §7 /verify/ssn, /verify/ssn/logged-in-refresh-token): 256 random bits,
 * SHA-256 at rest, bound to the user and its purpose, single use, 10 minutes.
 */
export const ssnTokens = pgTable('ssn_tokens', {
  id: uuid('id').primaryKey().defaultRandom(),
  tokenHash: text('token_hash').notNull().unique(),
  userId: uuid('user_id').notNull().references(() => users.id),
  purpose: text('purpose', { enum: ['reset-unlock-code', 'reset-password'] }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  /**
   * The keyed hash of the new unlock code a reset stored with this token (server/features/session):
   * the same reset sent again, its answer lost, is answered as the first. Null until one is stored.
   */
  unlockCodeReset: text('unlock_code_reset'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
