/** Tables of the services several features use: attempt limits, texted codes and their per-phone limits, the sandbox SMS outbox. */
import { index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Attempt counters that hold across restarts and instances, one row per (scope, subject): `sign-in`
 * by lower-cased email and client IP, `sign-in-account` by lower-cased email (unknown emails counted
 * like known ones), `ssn` by the account's lower-cased
 * email (wrong SSNs in password reset and unlock-code reset), `lookup` by client (account lookups per
 * Device-UUID and per IP, counted in a window: `failures` is the count, `locked_until` the window's
 * end; `texts`, `address-check` and `analytics` the same way), `card-activation` by user id (tries of a card's last 4 and expiry). Changed only with bounded updates
 * (server/attemptLimits.ts), so parallel requests cannot pass a limit.
 */
export const attemptLimits = pgTable('attempt_limits', {
  scope: text('scope', { enum: ['sign-in', 'sign-in-account', 'sign-in-client', 'ssn', 'lookup', 'texts', 'address-check', 'reset-code', 'reset-code-account', 'texted-code-phone', 'card-activation', 'analytics'] }).notNull(),
  subject: text('subject').notNull(),
  failures: integer('failures').notNull().default(0),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
  /** The last try reserveTry counted, right or wrong: while tries are being checked, the count goes on. */
  lastTryAt: timestamp('last_try_at', { withTimezone: true }).notNull().defaultNow(),
  /** The last try that proved wrong: a count that is not an escalating policy's starts again once its policy's wait has passed since (null: none). */
  lastFailureAt: timestamp('last_failure_at', { withTimezone: true }),
}, (t) => [primaryKey({ columns: [t.scope, t.subject] })]);

const codePurposes = ['register', 'sign-in', 'reset-password'] as const;

/** Texted one-time codes (spec §7 request-verification): keyed hash only, 10-minute expiry, single use. */
export const phoneVerificationCodes = pgTable('phone_verification_codes', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** 10 digits. */
  phone: text('phone').notNull(),
  codeHash: text('code_hash').notNull(),
  /** What the code proves: a phone for registration, the second factor of a sign-in, or the owner's phone for a password reset; one never counts as another. */
  purpose: text('purpose', { enum: codePurposes }).notNull().default('register'),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  /** Wrong codes entered while this was the live code (the lockout counts per phone and purpose, in phoneVerificationLimits). */
  attempts: integer('attempts').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('phone_verification_codes_phone_idx').on(t.phone, t.createdAt)]);

/**
 * Per-phone limits of each code purpose, in the database so they hold across restarts and instances:
 * wrong codes since the last success (5 → locked for 10 minutes) and codes sent in the current 10-minute
 * window (at most 5). One purpose never locks another (server/textedCodes.ts says why). Changed only with
 * bounded updates, so parallel requests cannot pass a limit.
 */
export const phoneVerificationLimits = pgTable('phone_verification_limits', {
  phone: text('phone').notNull(),
  purpose: text('purpose', { enum: codePurposes }).notNull(),
  failures: integer('failures').notNull().default(0),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }),
  codesSent: integer('codes_sent').notNull().default(0),
}, (t) => [primaryKey({ columns: [t.phone, t.purpose] })]);

/** The sandbox email gateway's outbox (sandbox mode only): the notices an owner is emailed. */
export const sandboxEmailOutbox = pgTable('sandbox_email_outbox', {
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('sandbox_email_outbox_email_idx').on(t.email, t.sentAt)]);

/** The sandbox SMS gateway's outbox (sandbox mode only): the one place a texted code is kept in clear. */
export const sandboxSmsOutbox = pgTable('sandbox_sms_outbox', {
  id: uuid('id').primaryKey().defaultRandom(),
  phone: text('phone').notNull(),
  text: text('text').notNull(),
  code: text('code'),
  sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('sandbox_sms_outbox_phone_idx').on(t.phone, t.sentAt)]);
