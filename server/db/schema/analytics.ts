/** What the app reports about itself: analytics events and error reports, redacted before storage. */
import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

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
