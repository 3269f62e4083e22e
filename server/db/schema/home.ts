/** The card account; its money is in the ledger (schema/ledger.ts), its cards in schema/cards.ts. */
import { users } from './identity.ts';
import { bigint, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

export const accounts = pgTable('accounts', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id').notNull().references(() => users.id),
  prn: text('prn').notNull().unique(),
  ebtRewardOwedCents: bigint('ebt_reward_owed_cents', { mode: 'number' }).notNull().default(0),
  ebtRewardsClaimedThisPeriodCents: bigint('ebt_rewards_claimed_this_period_cents', { mode: 'number' })
    .notNull()
    .default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  // One card account per user: home, activity, statements and the sandbox read "the" account of a user.
  uniqueIndex('accounts_user_unique').on(t.userId),
]);

/**
 * EBT swipes the sandbox has counted toward rewards (POST /sandbox/events `ebt.swipe`), one row per
 * swipe: the id comes from the Idempotency-Key (or is random without one), so a retried swipe owes
 * nothing more and answers what the first did.
 */
export const sandboxEbtSwipes = pgTable('sandbox_ebt_swipes', {
  id: uuid('id').primaryKey(),
  accountId: uuid('account_id').notNull().references(() => accounts.id),
  swipeCents: bigint('swipe_cents', { mode: 'number' }).notNull(),
  merchant: text('merchant').notNull(),
  /** The amount owed right after this swipe, as the first answer said it. */
  owedAfterCents: bigint('owed_after_cents', { mode: 'number' }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
