/** The home query. Balances are always summed from the ledger. */
import { sql } from 'drizzle-orm';
import type { Card, HomeAnswer } from '../../../contract/home/types.ts';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import type { Database } from '../../db/database.ts';

const recentActivityCount = 20;

/** What the home query answers: the account with its cards, recent activity and ledger totals. */
type HomeRow = {
  revoked: boolean;
  prn: string;
  ebtRewardOwed: number;
  ebtRewardsClaimedThisPeriod: number;
  registrationWave: string | null;
  cards: Card[];
  transactions: { id: string; amount: number; timestamp: string; description: string; location: string | null }[];
  totals: { balance: number; deposits: number; credits: number };
};

/**
 * One statement, so one round trip: on the embedded database every query costs a fixed overhead
 * that would otherwise be paid six times per home call. The balance is still summed from the ledger.
 * It also tells whether the access token's session was revoked ('revoked'), which the route's
 * preHandler leaves to it.
 */
export async function loadHome(db: Database, access: { userId: string; familyId: string }): Promise<HomeAnswer | 'revoked' | null> {
  const { rows } = (await db.execute(sql`
    select json_build_object(
      'revoked', exists(select 1 from refresh_tokens r where r.family_id = ${access.familyId} and r.revoked_at is not null),
      'prn', a.prn,
      'ebtRewardOwed', a.ebt_reward_owed_cents,
      'ebtRewardsClaimedThisPeriod', a.ebt_rewards_claimed_this_period_cents,
      'registrationWave', u.registration_wave,
      'cards', coalesce((
        select json_agg(json_build_object(
          'id', c.id, 'type', c.type, 'status', c.status, 'frozen', c.frozen,
          'isActive', c.is_active, 'isPending', c.is_pending, 'lastFour', c.last_four
        ) order by c.created_at)
        from cards c where c.account_id = a.id), '[]'::json),
      'transactions', coalesce((
        select json_agg(json_build_object(
          'id', t.id, 'amount', t.amount_cents, 'timestamp', t.occurred_at,
          'description', t.description, 'location', t.location
        ) order by t.occurred_at desc)
        from (
          select * from ledger_transactions where account_id = a.id order by occurred_at desc limit ${recentActivityCount}
        ) t), '[]'::json),
      'totals', (
        select json_build_object(
          'balance', coalesce(sum(l.amount_cents), 0),
          'deposits', count(*) filter (where l.kind = 'deposit'),
          'credits', count(*) filter (where l.amount_cents > 0)
        )
        from ledger_transactions l where l.account_id = a.id)
    ) as home
    from accounts a join users u on u.id = a.user_id
    where a.user_id = ${access.userId}
  `)) as unknown as { rows: { home: HomeRow }[] };
  const home = rows[0]?.home;
  if (!home) return null;
  if (home.revoked) return 'revoked';

  const pendingCard = home.cards.find((card) => card.isPending) ?? null;
  const virtualCard = home.cards.find((card) => card.type === 'VIRTUAL');
  const hasFundedAnyKind = Number(home.totals.credits) > 0;

  return {
    statusCode: StatusCode.SUCCESS,
    accountOverview: {
      balance: Number(home.totals.balance),
      cards: home.cards,
      // JSON timestamps come as Postgres writes them; the API sends ISO 8601 in UTC.
      transactions: home.transactions.map((t) => ({ ...t, timestamp: new Date(t.timestamp).toISOString() })),
      prn: home.prn,
      flags: { hasFunded: Number(home.totals.deposits) > 0, hasFundedAnyKind },
      ebtRewardOwed: Number(home.ebtRewardOwed),
      ebtRewardsClaimedThisPeriod: Number(home.ebtRewardsClaimedThisPeriod),
    },
    registrationWave: home.registrationWave,
    pendingCard,
    virtualCard: virtualCard ? { id: virtualCard.id } : null,
    prn: home.prn,
    hasFundedAnyKind,
  };
}
