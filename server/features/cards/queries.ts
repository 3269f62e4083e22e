/**
 * How a card row becomes the contract's Card (contract/cards/types.ts), written once in SQL so that
 * GET /home (one statement for the whole home) and every card call answer exactly the same shape: the
 * last 4 digits hidden while the card is pending, the delivery window only then, and the replacement
 * in both directions. No card number, CVV, PIN or expiry is ever part of it.
 */
import { type SQL, sql } from 'drizzle-orm';
import { checkCardExpiry } from '../../../contract/cards/rules.ts';
import type { Card } from '../../../contract/cards/types.ts';
import { todayInEveryState } from '../../../contract/identity/rules.ts';
import type { Database } from '../../db/database.ts';

/** The Card of the row `c` of `cards`, as a json value (a replacement found by the unique index on replaces_card_id). */
export const cardJsonSql = sql`json_build_object(
  'id', c.id, 'type', c.type, 'status', c.status, 'frozen', c.frozen, 'isActive', c.is_active, 'isPending', c.is_pending,
  'lastFour', case when c.is_pending then null else c.last_four end,
  'delivery', case when c.is_pending then json_build_object(
    'earliest', c.delivery_earliest, 'latest', c.delivery_latest, 'shippedOn', c.shipped_on, 'deliveredOn', c.delivered_on,
    'feeCents', coalesce((select t.amount_cents::int from transfers t where t.id = c.fee_transfer_id), 0)) end,
  'replacesCardId', c.replaces_card_id,
  'replacedByCardId', (select r.id from cards r where r.replaces_card_id = c.id))`;

/** The account's cards as a json array, in the order they were ordered (`accountId`: an SQL expression, e.g. `a.id`). */
export const accountCardsJsonSql = (accountId: SQL) =>
  sql`coalesce((select json_agg(${cardJsonSql} order by c.ordered_at, c.created_at, c.id) from cards c where c.account_id = ${accountId}), '[]'::json)`;

async function rowsOf<T>(db: Database, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** One card as the API answers it. */
export async function loadCard(db: Database, cardId: string): Promise<Card> {
  const [row] = await rowsOf<{ card: Card }>(db, sql`select ${cardJsonSql} as card from cards c where c.id = ${cardId}`);
  if (!row) throw new Error('The card is gone.');
  return row.card;
}

/** What the card rules look at: the row's state, without what the cardholder must type (last 4, expiry). */
export type CardState = {
  id: string;
  accountId: string;
  type: 'VIRTUAL' | 'PHYSICAL';
  status: Card['status'];
  frozen: boolean;
  isActive: boolean;
  isPending: boolean;
  shippedOn: string | null;
  replacesCardId: string | null;
  replacedByCardId: string | null;
  stopped: boolean;
};

const cardStateColumns = sql`c.id, c.account_id as "accountId", c.type, c.status, c.frozen, c.is_active as "isActive",
  c.is_pending as "isPending", c.shipped_on::text as "shippedOn", c.replaces_card_id as "replacesCardId",
  (select r.id from cards r where r.replaces_card_id = c.id) as "replacedByCardId", c.stopped_at is not null as stopped`;

/** The caller's card with this id, or null (another cardholder's card is as unknown as none). */
export async function ownCard(db: Database, userId: string, cardId: string): Promise<CardState | null> {
  const [row] = await rowsOf<CardState>(
    db,
    sql`select ${cardStateColumns} from cards c join accounts a on a.id = c.account_id where c.id = ${cardId} and a.user_id = ${userId}`,
  );
  return row ?? null;
}

/** The account's physical card on its way (at most one: cards_one_pending_physical), or null. */
export async function pendingCardOf(db: Database, accountId: string): Promise<CardState | null> {
  const [row] = await rowsOf<CardState>(db, sql`select ${cardStateColumns} from cards c where c.account_id = ${accountId} and c.is_pending`);
  return row ?? null;
}

/** Whether the account has a physical card in use (activated, not lost, stolen or stopped; locked or not). */
export async function hasWorkingPhysicalCard(db: Database, accountId: string): Promise<boolean> {
  const rows = await rowsOf(db, sql`select 1 from cards c where c.account_id = ${accountId} and c.type = 'PHYSICAL' and c.is_active limit 1`);
  return rows.length > 0;
}

/**
 * Whether a card transaction may go through (sandbox card network, server/partners/moneyEvents.ts): the
 * card named (one of the account's), or, when none is named, any of the account's cards, must be
 * usable, unlocked and not past its printed expiry. An ATM takes only a physical card. A pending,
 * locked, lost, stolen, stopped or expired card is refused for every card and ATM transaction.
 *
 * The expiry is activation's own check (contract/cards/rules.ts), on the same day: good through the last
 * day of its month where that day ends last in the 50 states. A card activation accepts is never
 * refused here the same day, as it was for up to 10 hours when this check used UTC.
 */
export async function cardWorks(
  db: Database,
  request: { accountId: string; cardId?: string; atm: boolean },
  now = new Date(),
): Promise<'works' | 'card_not_found' | 'card_not_usable'> {
  const rows = await rowsOf<{ usable: boolean; expiry: string }>(
    db,
    sql`select c.is_active and not c.frozen and (not ${request.atm} or c.type = 'PHYSICAL') as usable, c.expiry
      from cards c where c.account_id = ${request.accountId} ${request.cardId === undefined ? sql`` : sql`and c.id = ${request.cardId}`}`,
  );
  if (request.cardId !== undefined && rows.length === 0) return 'card_not_found';
  const today = todayInEveryState(now);
  return rows.some((row) => row.usable && checkCardExpiry(row.expiry, today) === null) ? 'works' : 'card_not_usable';
}
