/**
 * The card API's data model. Money is integer cents; a balance is always the sum of its ledger.
 * Secrets (passwords, unlock codes, refresh tokens, texted codes, mfa tokens) are stored only as
 * hashes; SSNs are encrypted (AES-256-GCM) with a keyed hash beside them for uniqueness (server/ssn.ts).
 */
import { sql } from 'drizzle-orm';
import type { ExperimentFlags } from '../../contract/experiments/types.ts';
import { agreementKinds } from '../../contract/identity/types.ts';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

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
  /** Date of birth, `mm/dd/yyyy` as registered (spec §5). */
  dob: text('dob'),
  /** AES-256-GCM, `aesgcm$<iv>$<ciphertext>$<tag>`, the user id as associated data (server/ssn.ts). */
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

export const accounts = pgTable('accounts', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id').notNull().references(() => users.id),
  prn: text('prn').notNull().unique(),
  ebtRewardOwedCents: bigint('ebt_reward_owed_cents', { mode: 'number' }).notNull().default(0),
  ebtRewardsClaimedThisPeriodCents: bigint('ebt_rewards_claimed_this_period_cents', { mode: 'number' })
    .notNull()
    .default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('accounts_user_idx').on(t.userId)]);

export const cards = pgTable('cards', {
  id: uuid('id').primaryKey().defaultRandom(),
  accountId: uuid('account_id').notNull().references(() => accounts.id),
  type: text('type', { enum: ['VIRTUAL', 'PHYSICAL'] }).notNull(),
  status: text('status', { enum: ['ACTIVE', 'LOST', 'SHIPPED', 'STOLEN'] }).notNull(),
  frozen: boolean('frozen').notNull().default(false),
  isActive: boolean('is_active').notNull().default(false),
  isPending: boolean('is_pending').notNull().default(false),
  lastFour: text('last_four').notNull(),
  expiry: text('expiry').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('cards_account_idx').on(t.accountId)]);

export const ledgerTransactions = pgTable('ledger_transactions', {
  id: uuid('id').primaryKey().defaultRandom(),
  accountId: uuid('account_id').notNull().references(() => accounts.id),
  /** Cents; positive is a credit. */
  amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
  kind: text('kind').notNull(),
  description: text('description').notNull(),
  location: text('location'),
  occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
  /** Replays of a money-moving call with the same key return the first result. */
  idempotencyKey: text('idempotency_key').unique(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('ledger_account_time_idx').on(t.accountId, t.occurredAt)]);

export const refreshTokens = pgTable('refresh_tokens', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id').notNull().references(() => users.id),
  /** One sign-in starts a family; rotation keeps it, reuse of a spent token revokes all of it. */
  familyId: uuid('family_id').notNull(),
  tokenHash: text('token_hash').notNull().unique(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('refresh_tokens_family_idx').on(t.familyId)]);

export const analyticsEvents = pgTable('analytics_events', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  userId: uuid('user_id'),
  deviceUuid: text('device_uuid'),
  sessionId: text('session_id'),
  properties: jsonb('properties').notNull().default({}),
  /** Experiment exposures and the like, as the app knew them when it sent the batch. */
  userProperties: jsonb('user_properties').notNull().default({}),
  occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('analytics_events_name_idx').on(t.name)]);

export const experimentAudiences = ['everyone', 'internal'] as const;
export type ExperimentAudience = (typeof experimentAudiences)[number];

/** Remote experiment config (spec §6): one row per audience; internal users get theirs when it exists. */
export const experimentConfigs = pgTable('experiment_configs', {
  audience: text('audience', { enum: experimentAudiences }).primaryKey(),
  flags: jsonb('flags').$type<ExperimentFlags>().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The app's error reports (sandbox stand-in for an error-tracking vendor), redacted before storage. */
export const errorReports = pgTable('error_reports', {
  id: uuid('id').primaryKey().defaultRandom(),
  level: text('level', { enum: ['warning', 'error'] }).notNull(),
  message: text('message').notNull(),
  context: jsonb('context').notNull().default({}),
  deviceUuid: text('device_uuid'),
  occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Agreements a cardholder accepted (spec §3: E-Sign, Terms of use, Cardholder Agreement); the first acceptance is kept. */
export const agreementAcceptances = pgTable('agreement_acceptances', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id').notNull().references(() => users.id),
  kind: text('kind', { enum: agreementKinds }).notNull(),
  acceptedAt: timestamp('accepted_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [uniqueIndex('agreement_acceptances_user_kind_unique').on(t.userId, t.kind)]);

/** Texted one-time codes (spec §7 request-verification): keyed hash only, 10-minute expiry, single use. */
export const phoneVerificationCodes = pgTable('phone_verification_codes', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** 10 digits. */
  phone: text('phone').notNull(),
  codeHash: text('code_hash').notNull(),
  /** What the code proves: a phone for registration, or the second factor of a sign-in; one never counts as the other. */
  purpose: text('purpose', { enum: ['register', 'sign-in'] }).notNull().default('register'),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  /** Wrong codes entered while this was the live code (the lockout counts per phone, in phoneVerificationLimits). */
  attempts: integer('attempts').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('phone_verification_codes_phone_idx').on(t.phone, t.createdAt)]);

/**
 * Per-phone limits, in the database so they hold across restarts and instances: wrong codes since the
 * last success (5 → locked for 10 minutes) and codes sent in the current 10-minute window (at most 5).
 * Changed only with bounded updates, so parallel requests cannot pass a limit.
 */
export const phoneVerificationLimits = pgTable('phone_verification_limits', {
  phone: text('phone').primaryKey(),
  failures: integer('failures').notNull().default(0),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }),
  codesSent: integer('codes_sent').notNull().default(0),
});

/** Proof of a verified phone for POST /register: random, stored hashed, single use, 30 minutes, bound to the phone. */
export const mfaTokens = pgTable('mfa_tokens', {
  id: uuid('id').primaryKey().defaultRandom(),
  tokenHash: text('token_hash').notNull().unique(),
  phone: text('phone').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The sandbox SMS gateway's outbox (sandbox mode only): the one place a texted code is kept in clear. */
export const sandboxSmsOutbox = pgTable('sandbox_sms_outbox', {
  id: uuid('id').primaryKey().defaultRandom(),
  phone: text('phone').notNull(),
  text: text('text').notNull(),
  code: text('code'),
  sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('sandbox_sms_outbox_phone_idx').on(t.phone, t.sentAt)]);

/**
 * Attempt counters that hold across restarts and instances, one row per (scope, subject): `sign-in`
 * by lower-cased email (unknown emails counted like known ones), `ssn` by the account's lower-cased
 * email (wrong SSNs in password reset and unlock-code reset), `lookup` by client (account lookups per
 * Device-UUID and per IP, counted in a window: `failures` is the count, `locked_until` the window's
 * end). Changed only with bounded updates
 * (server/attemptLimits.ts), so parallel requests cannot pass a limit.
 */
export const attemptLimits = pgTable('attempt_limits', {
  scope: text('scope', { enum: ['sign-in', 'ssn', 'lookup'] }).notNull(),
  subject: text('subject').notNull(),
  failures: integer('failures').notNull().default(0),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
}, (t) => [primaryKey({ columns: [t.scope, t.subject] })]);

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
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
