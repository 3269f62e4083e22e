/** The card account and its cards; its money is in the ledger (schema/ledger.ts). */
import { users } from './identity.ts';
import { bigint, boolean, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

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
