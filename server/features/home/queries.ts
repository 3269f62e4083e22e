/** The home query: balances and recent activity from the ledger, the cards as the cards feature answers them. */
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Card } from '../../../contract/cards/types.ts';
import type { HomeAnswer } from '../../../contract/home/types.ts';
import { activityRowsSql, transactionOf } from '../activity/index.ts';
import { accountCardsJsonSql } from '../cards/index.ts';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import type { Database } from '../../db/database.ts';
import { type PreparedStatement, runPrepared } from '../../db/prepared.ts';

const recentActivityCount = 20;

/** What the home query answers: the account with its cards, recent activity and ledger totals. */
type HomeRow = {
  revoked: boolean;
  prn: string;
  ebtRewardOwed: number;
  ebtRewardsClaimedThisPeriod: number;
  registrationWave: string | null;
  cards: Card[];
  transactions: Parameters<typeof transactionOf>[0][];
  ledger: { available: number; onHold: number; hasFunded: boolean; hasFundedAnyKind: boolean } | null;
};

/** Money added to the account by any means (spec §3 hasFundedAnyKind); a deposit alone is hasFunded. */
const fundingKinds = sql.raw(`('deposit', 'card_load', 'cash_load')`);

const dialect = new PgDialect();

/**
 * One statement, so one round trip, prepared once per database session (server/db/prepared.ts: on
 * the embedded database planning it cost more than running it, and one thread serves every query).
 * Parameters: $1 user, $2 the access token's session family, $3 now. The balances are the ledger
 * account's (server/features/ledger), less holds past their timeout that no write has recorded yet,
 * as the ledger's own balances() reads them; the activity is the activity feature's. It also tells
 * whether the session was revoked ('revoked'), which the route's preHandler leaves to it. The answer
 * is one JSON text, parsed here (PGlite's own parsing of a json value costs more).
 */
const homeStatement: PreparedStatement = (() => {
  const now = sql.raw('$3');
  const expiredHolds = sql`(select coalesce(sum(h.amount_cents), 0) from transfers h
    where h.debit_ledger_account_id = la.id and h.phase = 'pending' and h.timeout_at <= ${now}
      and not exists (select 1 from transfers r where r.pending_id = h.id))`;
  const query = dialect.sqlToQuery(sql`
    select json_build_object(
      'revoked', exists(select 1 from refresh_tokens r where r.family_id = $2 and r.revoked_at is not null),
      'prn', a.prn,
      'ebtRewardOwed', a.ebt_reward_owed_cents,
      'ebtRewardsClaimedThisPeriod', a.ebt_rewards_claimed_this_period_cents,
      'registrationWave', u.registration_wave,
      'cards', ${accountCardsJsonSql(sql`a.id`)},
      'transactions', coalesce((
        select json_agg(row_to_json(activity)) from (${activityRowsSql(sql`la.id`, { limit: recentActivityCount, now })}) activity
      ), '[]'::json),
      'ledger', (select json_build_object(
          'available', la.credits_posted - la.debits_posted - (la.debits_pending - held.expired),
          'onHold', la.debits_pending - held.expired,
          'hasFunded', exists(select 1 from transfers f where f.credit_ledger_account_id = la.id and f.phase = 'posted' and f.kind = 'deposit'),
          'hasFundedAnyKind', exists(select 1 from transfers f
            where f.credit_ledger_account_id = la.id and f.phase in ('posted', 'post_pending') and f.kind in ${fundingKinds}))
        from (select ${expiredHolds} as expired) held)
    )::text as home
    from accounts a join users u on u.id = a.user_id left join ledger_accounts la on la.account_id = a.id
    where a.user_id = $1
  `);
  // Every value is a placeholder above: a value bound into the text would be prepared once for everyone.
  if (query.params.length > 0) throw new Error('home statement: values bound into a prepared statement\'s text');
  return { name: 'home_overview', text: query.sql, types: ['uuid', 'uuid', 'timestamptz'] };
})();

export async function loadHome(db: Database, access: { userId: string; familyId: string }, now = new Date()): Promise<HomeAnswer | 'revoked' | null> {
  const rows = await runPrepared<{ home: string }>(db, homeStatement, [access.userId, access.familyId, now.toISOString()]);
  const text = rows[0]?.home;
  if (!text) return null;
  const home = JSON.parse(text) as HomeRow;
  if (home.revoked) return 'revoked';

  const pendingCard = home.cards.find((card) => card.isPending) ?? null;
  const virtualCard = home.cards.find((card) => card.type === 'VIRTUAL');
  const ledger = home.ledger ?? { available: 0, onHold: 0, hasFunded: false, hasFundedAnyKind: false };

  return {
    statusCode: StatusCode.SUCCESS,
    accountOverview: {
      balance: Number(ledger.available),
      onHold: Number(ledger.onHold),
      cards: home.cards,
      transactions: home.transactions.map(transactionOf),
      prn: home.prn,
      flags: { hasFunded: ledger.hasFunded, hasFundedAnyKind: ledger.hasFundedAnyKind },
      ebtRewardOwed: Number(home.ebtRewardOwed),
      ebtRewardsClaimedThisPeriod: Number(home.ebtRewardsClaimedThisPeriod),
    },
    registrationWave: home.registrationWave,
    pendingCard,
    virtualCard: virtualCard ? { id: virtualCard.id } : null,
    prn: home.prn,
    hasFundedAnyKind: ledger.hasFundedAnyKind,
  };
}
