/**
 * The card API's data model. Money is integer cents; a balance is always the sum of its ledger.
 * Secrets (passwords, unlock codes, refresh tokens) are stored only as hashes.
 */
import { sql } from 'drizzle-orm';
import type { ExperimentFlags } from '../../contract/api.ts';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull(),
  firstName: text('first_name').notNull(),
  middleName: text('middle_name'),
  lastName: text('last_name').notNull(),
  phone: text('phone').notNull(),
  street1: text('street1').notNull(),
  street2: text('street2').notNull().default(''),
  city: text('city').notNull(),
  state: text('state').notNull(),
  zip: text('zip').notNull(),
  passwordHash: text('password_hash').notNull(),
  unlockCodeHash: text('unlock_code_hash'),
  /** Wrong unlock codes since the last success; the lockout is enforced from this row. */
  unlockFailures: integer('unlock_failures').notNull().default(0),
  isInternal: boolean('is_internal').notNull().default(false),
  /** The companion benefits app's user uuid: links that app's sign-in to this cardholder. */
  providersUuid: text('providers_uuid').unique(),
  registrationWave: text('registration_wave'),
  addressChangedAt: timestamp('address_changed_at', { withTimezone: true }),
  phoneChangedAt: timestamp('phone_changed_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [uniqueIndex('users_email_unique').on(sql`lower(${t.email})`)]);

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
