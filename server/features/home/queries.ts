/**
 * The home query: balances and recent activity from the ledger, the cards as the cards feature answers
 * them; and the answers kept per cardholder, each given again only while the rows it was read from are
 * unchanged (their versions) and no hold in it has timed out.
 */
import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Card } from '../../../contract/cards/types.ts';
import type { HomeAnswer } from '../../../contract/home/types.ts';
import { activityRowsSql, transactionOf } from '../activity/index.ts';
import { accountCardsJsonSql } from '../cards/index.ts';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import type { Database } from '../../db/database.ts';
import { answerRequest, type CurrentVersion, firstTime, keptAnswers } from '../../db/keptAnswers.ts';
import { type PreparedStatement, runPrepared } from '../../db/prepared.ts';
import { familyRevokedSql } from '../../sessions.ts';

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
  version: string;
  /** The first time after `now` a hold of the account that counts against its balance times out, if any. */
  nextHoldTimeout: string | null;
};

/** Money added to the account by any means (spec §3 hasFundedAnyKind); a deposit alone is hasFunded. */
const fundingKinds = sql.raw(`('deposit', 'card_load', 'cash_load')`);

const dialect = new PgDialect();

/** The rows a home answer is read from: the account `a`, its user `u` and ledger account `la` (left joined). */
const homeRowsSql = sql`accounts a join users u on u.id = a.user_id left join ledger_accounts la on la.account_id = a.id
    where a.user_id = $1`;

/**
 * The versions of those rows and of the account's cards: a row's xmin changes with every write to it
 * (an UPDATE makes a new row version), in the transaction that writes it. Every transfer of the account
 * writes its ledger account's balance columns in the same statement (server/features/ledger/writes.ts),
 * so a new transfer, a hold posted or voided, changes `la`'s version too.
 */
const versionSql = sql`concat_ws(' ', a.xmin, u.xmin, la.xmin,
    (select string_agg(c.id::text || ':' || c.xmin::text, ' ' order by c.id) from cards c where c.account_id = a.id))`;

const revokedSql = familyRevokedSql(sql.raw('$2'));

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
  /** The account's holds not yet posted or voided, with a timeout as `timeout` says (against now). */
  const openHolds = (timeout: SQL) => sql`from transfers h
    where h.debit_ledger_account_id = la.id and h.phase = 'pending' and ${timeout}
      and not exists (select 1 from transfers r where r.pending_id = h.id)`;
  const expiredHolds = sql`(select coalesce(sum(h.amount_cents), 0) ${openHolds(sql`h.timeout_at <= ${now}`)})`;
  const query = dialect.sqlToQuery(sql`
    select json_build_object(
      'revoked', ${revokedSql},
      'version', ${versionSql},
      'prn', a.prn,
      'ebtRewardOwed', a.ebt_reward_owed_cents,
      'ebtRewardsClaimedThisPeriod', a.ebt_rewards_claimed_this_period_cents,
      'registrationWave', u.registration_wave,
      'cards', ${accountCardsJsonSql(sql`a.id`)},
      'transactions', coalesce((
        select json_agg(row_to_json(activity)) from (${activityRowsSql(sql`la.id`, { limit: recentActivityCount, now })}) activity
      ), '[]'::json),
      'ledger', (select json_build_object(
          -- The balance shown; a card order answers the same (cards/cardLife.ts balanceShown): change both.
          'available', la.credits_posted - la.debits_posted - (la.debits_pending - held.expired),
          'onHold', la.debits_pending - held.expired,
          'hasFunded', exists(select 1 from transfers f where f.credit_ledger_account_id = la.id and f.phase = 'posted' and f.kind = 'deposit'),
          'hasFundedAnyKind', exists(select 1 from transfers f
            where f.credit_ledger_account_id = la.id and f.phase in ('posted', 'post_pending') and f.kind in ${fundingKinds}))
        from (select ${expiredHolds} as expired) held),
      'nextHoldTimeout', (select min(h.timeout_at) ${openHolds(sql`h.timeout_at > ${now}`)})
    )::text as home
    from ${homeRowsSql}
  `);
  // Every value is a placeholder above: a value bound into the text would be prepared once for everyone.
  if (query.params.length > 0) throw new Error('home statement: values bound into a prepared statement\'s text');
  return { name: 'home_overview', text: query.sql, types: ['uuid', 'uuid', 'timestamptz'] };
})();

/** Whether the session was revoked, and the version of the rows the answer is read from ($1 user, $2 session family). */
const versionStatement: PreparedStatement = (() => {
  const query = dialect.sqlToQuery(sql`select ${revokedSql} as revoked, ${versionSql} as version from ${homeRowsSql}`);
  if (query.params.length > 0) throw new Error('home version statement: values bound into a prepared statement\'s text');
  return { name: 'home_version', text: query.sql, types: ['uuid', 'uuid'] };
})();

/**
 * Kept home answers per cardholder (server/db/keptAnswers.ts). Reading the versions costs the embedded
 * database about a third of reading the answer (profiled in docs/performance.md).
 */
const keptHomes = keptAnswers<HomeAnswer>(2000);

/**
 * The home answer for this session's cardholder at `now`; 'revoked' when the session was revoked,
 * null when the cardholder has no account. A kept answer is given when its rows' versions are the
 * same and `now` is from when it was read until the first hold in it (shown, or counted against the
 * balance) times out: then reading it again would give the same answer.
 */
export async function loadHome(db: Database, access: { userId: string; familyId: string }, now = new Date()): Promise<HomeAnswer | 'revoked' | null> {
  const asked = answerRequest(db, access.familyId, now);
  const readCurrent = () => runPrepared<CurrentVersion>(db, versionStatement, [access.userId, access.familyId]).then(([current]) => current);
  const kept = await keptHomes.again(db, access.userId, asked, readCurrent);
  if (kept) return kept;
  const rows = await runPrepared<{ home: string }>(db, homeStatement, [access.userId, access.familyId, now.toISOString()]);
  const text = rows[0]?.home;
  if (!text) return null;
  const home = JSON.parse(text) as HomeRow;
  if (home.revoked) return 'revoked';
  const answer = homeAnswerOf(home);
  // It stops being the answer by time alone when a hold it shows or counts times out.
  const validUntil = firstTime([home.nextHoldTimeout, ...answer.accountOverview.transactions.map((transaction) => transaction.heldUntil)]);
  keptHomes.keep(db, access.userId, asked, { answer, version: home.version, validUntil });
  return answer;
}

function homeAnswerOf(home: HomeRow): HomeAnswer {
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
