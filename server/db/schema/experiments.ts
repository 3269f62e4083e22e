/** Remote experiment config (spec §6). */
import type { ExperimentFlags } from '../../../contract/experiments/types.ts';
import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const experimentAudiences = ['everyone', 'internal'] as const;

export type ExperimentAudience = (typeof experimentAudiences)[number];

/** Remote experiment config (spec §6): one row per audience; internal users get theirs when it exists. */
export const experimentConfigs = pgTable('experiment_configs', {
  audience: text('audience', { enum: experimentAudiences }).primaryKey(),
  flags: jsonb('flags').$type<ExperimentFlags>().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
