/** Sessions: rotating refresh tokens in families (server/sessions.ts). */
import { users } from './identity.ts';
import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const refreshTokens = pgTable('refresh_tokens', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id').notNull().references(() => users.id),
  /** One sign-in starts a family; rotation keeps it, reuse of a spent token revokes all of it. */
  familyId: uuid('family_id').notNull(),
  tokenHash: text('token_hash').notNull().unique(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
  /**
   * When spent: the device that spent it and its successor, sealed with a key only the spent token
   * gives (server/sessions.ts), so a second tab of that device that raced the first gets the same
   * successor for a few seconds instead of revoking the family.
   */
  spentByDevice: text('spent_by_device'),
  successorSealed: text('successor_sealed'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  index('refresh_tokens_family_idx').on(t.familyId),
  // The hourly delete of expired sessions (server/sessions.ts deleteExpired) finds them without a scan.
  index('refresh_tokens_expires_idx').on(t.expiresAt),
]);
