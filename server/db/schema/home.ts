/** The card account; its money is in the ledger (schema/ledger.ts), its cards in schema/cards.ts. */
import { users } from './identity.ts';
import { bigint, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

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
