/**
 * POST /sandbox/events (sandbox mode only): the world moving money the way the card network, an
 * employer or a benefits agency would, through the ledger like every other movement, and cards moving
 * the way the card processor and the carrier would (docs/sandbox.md).
 * - `card.authorization`: a store asks for an amount; it is held (pending) for `holdDays` (7 by default)
 *   unless settled or released first. Refused when the available balance is short (a declined card),
 *   and when the card (`cardId`, else every card of the account) is locked, lost, stolen, stopped or
 *   not yet activated (409 `card_not_usable`): blocked for every card and ATM transaction.
 * - `card.shipped` / `card.delivered` {cardId}: the processor ships a pending physical card (a
 *   replacement then stops the card it replaces) and the carrier delivers it. `card.shipped` answers
 *   what is printed on the card (lastFour, expiry), as the cardholder would read it to activate it.
 * - `card.settlement` (all or part of a hold, or more: a tip, taken only when the available balance
 *   covers the extra, else refused and the hold kept) and `card.release` (the store lets the hold go).
 * - `card.refund`; `deposit` (payroll, a benefit or a tax refund, with the payer's name), refused
 *   (409 `name_mismatch`) unless the name it was sent to is the account holder's (spec §5, payeeName.ts).
 * - `atm.withdrawal`: cash out at an ATM; out of network (`network: 'out'`) the fee the fee disclosure
 *   names is charged with it, both or neither.
 * - `ebt.swipe`: the cardholder paid with their EBT card at a store; 1% of it (spec §9) becomes an EBT
 *   reward owed to them. No money moves yet (EBT funds are not this account's): claiming the reward
 *   (the benefits issue) will move it from rewards payable through the ledger.
 * An `Idempotency-Key` header makes a retry one event, whatever its type: the same key answers the first
 * result, and the same key with another body (another type included) is refused (422). A refused event moved
 * nothing, so the same key may try it again.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { eq, sql } from 'drizzle-orm';
import { type InferType, mixed, number, object, string } from 'yup';
import { idempotencyKeyPattern } from '../../contract/shared/route.ts';
import { StatusCode } from '../../contract/shared/statusCodes.ts';
import { usCalendarDay } from '../../contract/shared/businessDays.ts';
import { canonicalUuid, uuidPattern } from '../../contract/rules.ts';
import type { Database } from '../db/database.ts';
import { sandboxCardTransactions, sandboxEbtSwipes } from '../db/schema/index.ts';
import {
  type CreateTransferFailure,
  createTransfer,
  findTransfer,
  invariantReport,
  openCardholderLedgerAccount,
  postPendingTransfer,
  systemLedgerAccounts,
  transferIdFor,
  voidPendingTransfer,
} from '../features/ledger/index.ts';
import { cardWorks, markDelivered, markShipped } from '../features/cards/index.ts';
import { type FeeName, fees } from '../../contract/shared/fees.ts';
import { payeeNameMatches } from './payeeName.ts';

const eventTypes = [
  'card.authorization',
  'card.settlement',
  'card.release',
  'card.refund',
  'deposit',
  'atm.withdrawal',
  'ebt.swipe',
  'card.shipped',
  'card.delivered',
] as const;
type EventType = (typeof eventTypes)[number];

const cents = number().integer().min(1).max(10_000_000);
// Case-insensitive on input (RFC 9562 §4); the ids are stored and compared in lower case.
const uuid = string().matches(uuidPattern);
const name = string().trim().min(1).max(80);
const eventRequest = object({
  type: mixed<EventType>().oneOf(eventTypes).required(),
  // The cardholder's email as they sign in with it (an unknown one answers 404).
  email: string().trim().max(254).optional(),
  amountCents: cents.optional(),
  merchant: name.optional(),
  payer: name.optional(),
  /** The name a deposit was sent to, as the payer has it: it must be the account holder's. */
  payee: name.optional(),
  location: name.optional(),
  holdDays: number().integer().min(1).max(30).optional(),
  transactionId: uuid.optional(),
  /** The card used (card.authorization, atm.withdrawal; any of the account's when absent), or moved (card.shipped, card.delivered). */
  cardId: uuid.optional(),
  /** An ATM's network (atm.withdrawal): 'in' by default; 'out' charges the out-of-network fee. */
  network: mixed<'in' | 'out'>().oneOf(['in', 'out']).optional(),
}).noUnknown();
type MoneyEvent = InferType<typeof eventRequest>;

/** Which fields each event needs. */
const needs: Record<EventType, (keyof MoneyEvent)[]> = {
  'card.authorization': ['email', 'amountCents', 'merchant'],
  'card.settlement': ['transactionId'],
  'card.release': ['transactionId'],
  'card.refund': ['email', 'amountCents', 'merchant'],
  deposit: ['email', 'amountCents', 'payer', 'payee'],
  'atm.withdrawal': ['email', 'amountCents'],
  'ebt.swipe': ['email', 'amountCents', 'merchant'],
  'card.shipped': ['cardId'],
  'card.delivered': ['cardId'],
};
/** What else each event may say; any other field is refused rather than silently left unused. */
const mayHave: Record<EventType, (keyof MoneyEvent)[]> = {
  'card.authorization': ['location', 'holdDays', 'cardId'],
  'card.settlement': ['amountCents'],
  'card.release': [],
  'card.refund': ['location'],
  deposit: ['location'],
  'atm.withdrawal': ['location', 'cardId', 'network'],
  'ebt.swipe': [],
  'card.shipped': [],
  'card.delivered': [],
};

/** EBT rewards: 1% cash on EBT swipes (spec §9), in whole cents, rounded down. */
const ebtRewardOf = (swipeCents: number) => Math.floor(swipeCents / 100);

type CardAccount = { id: string; firstName: string; lastName: string };
/** The card account of the cardholder who signs in with this email, with the holder's name, or null. */
async function cardAccountOf(db: Database, email: string): Promise<CardAccount | null> {
  const { rows } = (await db.execute(
    sql`select a.id, u.first_name as "firstName", u.last_name as "lastName" from accounts a join users u on u.id = a.user_id
      where lower(u.email) = lower(${email})`,
  )) as unknown as { rows: CardAccount[] };
  return rows[0] ?? null;
}

type EbtSwipeResult = { result: 'counted'; owedAfterCents: number } | { result: 'cardholder_not_found' } | { result: 'exists_with_different_fields' };
type EbtSwipe = { id: string; email: string; swipeCents: number; merchant: string };

/**
 * Every event sent with one Idempotency-Key waits for the others of that key (an advisory lock on its
 * id, held to the end of the transaction): swipes are rows of their own, outside the ledger, so a
 * swipe and a ledger event of one key, each checking the other's table, would otherwise both be made
 * when they arrived at the same moment.
 */
const lockEventId = (tx: Database, id: string) => tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${id}, 0))`);

/**
 * Counts an EBT swipe toward the cardholder's rewards, once per id: the swipe's row and the amount
 * owed are written in one transaction, under the key's lock, so a retry (the same Idempotency-Key) owes
 * nothing more and answers what the first did; the same key with another swipe, another cardholder
 * or another event is refused.
 */
async function ebtSwipe(db: Database, swipe: EbtSwipe): Promise<EbtSwipeResult> {
  return db.transaction(async (tx) => {
    await lockEventId(tx, swipe.id);
    const accountId = (await cardAccountOf(tx, swipe.email))?.id;
    if (!accountId) return { result: 'cardholder_not_found' };
    const [first] = await tx.select().from(sandboxEbtSwipes).where(eq(sandboxEbtSwipes.id, swipe.id));
    // The key already moved money as another event.
    if (!first && (await findTransfer(tx, swipe.id))) return { result: 'exists_with_different_fields' };
    if (first) {
      const same = first.accountId === accountId && first.swipeCents === swipe.swipeCents && first.merchant === swipe.merchant;
      return same ? { result: 'counted', owedAfterCents: first.owedAfterCents } : { result: 'exists_with_different_fields' };
    }
    const { rows } = (await tx.execute(
      sql`update accounts set ebt_reward_owed_cents = ebt_reward_owed_cents + ${ebtRewardOf(swipe.swipeCents)} where id = ${accountId}
        returning ebt_reward_owed_cents as owed`,
    )) as unknown as { rows: { owed: string }[] };
    const owedAfterCents = Number(rows[0]!.owed);
    await tx.insert(sandboxEbtSwipes).values({ id: swipe.id, accountId, swipeCents: swipe.swipeCents, merchant: swipe.merchant, owedAfterCents });
    return { result: 'counted', owedAfterCents };
  });
}

const isEbtSwipe = async (db: Database, id: string) =>
  (await db.select({ id: sandboxEbtSwipes.id }).from(sandboxEbtSwipes).where(eq(sandboxEbtSwipes.id, id))).length > 0;

type Refusal = CreateTransferFailure | 'exists_with_different_fields';
/** A write of the ledger refused inside a transaction that wrote something already: thrown to roll it all back. */
class Refused extends Error {
  constructor(readonly result: Refusal) {
    super(result);
  }
}

type Withdrawal = { id: string; cardholder: string; amountCents: number; location: string | null; outOfNetwork: boolean };

/**
 * When an ATM's fee is timed: a millisecond after its cash (timed under the account's lock, which the
 * fee's transaction still holds), so every list keeps it next to the cash and after it (equal times
 * are ordered by their random ids); at the cash's own time when a millisecond more would begin the
 * next day in US Eastern time, the statements' calendar, so the two are on one month's statement. At
 * one time, a statement lists a fee after the rest; the activity list, by id, on either side.
 */
export function feeTimeAfter(cashAt: Date): Date {
  const next = new Date(cashAt.getTime() + 1);
  return usCalendarDay(next) === usCalendarDay(cashAt) ? next : cashAt;
}

/**
 * Cash out at an ATM, in the card's transaction. Out of network the fee (contract/shared/fees.ts) is a
 * transfer of its own, beside the cash, named by its code: the balance must cover both, or neither is
 * made (the cash is rolled back). A retry answers the first; the same key for the other network is
 * refused.
 */
async function withdrawCash(tx: Database, withdrawal: Withdrawal) {
  const { id, cardholder, amountCents, location, outOfNetwork } = withdrawal;
  const feeId = transferIdFor({ caller: 'sandbox', operation: 'atm.withdrawal fee' }, id);
  const cash = await createTransfer(tx, { id, debit: cardholder, credit: systemLedgerAccounts.settlement, amountCents, kind: 'atm_withdrawal', location, phase: 'posted' });
  if (cash.result === 'exists') return outOfNetwork === ((await findTransfer(tx, feeId)) !== undefined) ? cash : { result: 'exists_with_different_fields' as const };
  if (cash.result !== 'created' || !outOfNetwork) return cash;
  // The fee's time goes as the ledger's `now`, not as `occurredAt`: a retry compares a stated time.
  const fee = await createTransfer(tx, {
    id: feeId,
    debit: cardholder,
    credit: systemLedgerAccounts.fee_revenue,
    amountCents: fees.atmWithdrawalOutOfNetwork.cents,
    kind: 'fee',
    counterparty: 'atmWithdrawalOutOfNetwork' satisfies FeeName,
    location,
    phase: 'posted',
    now: feeTimeAfter(cash.transfer.occurredAt),
  });
  // A fee that exists without its cash: the id was someone else's.
  if (fee.result !== 'created') throw new Refused(fee.result === 'exists' ? 'exists_with_different_fields' : fee.result);
  return cash;
}

/**
 * A card transaction (a purchase's hold, an ATM withdrawal): the card's state checked and the money
 * moved in one transaction, under a share lock of the account's row. A lock, a lost or stolen report
 * or a replacement's shipping takes that row first (cardLife.ts), so it either committed before and
 * the card is refused, or it waits until the money has moved. A retry of a transaction made is
 * answered as the first was, even if the card stopped since, when it names the card the first named
 * (the transfer does not hold the card: `sandbox_card_transactions` does, written with it).
 */
async function byCard<R extends { result: string }>(
  db: Database,
  request: { id: string; accountId: string; cardId?: string; atm: boolean },
  move: (tx: Database) => Promise<R>,
): Promise<R | { result: 'card_not_found' | 'card_not_usable' | Refusal }> {
  const cardId = request.cardId ?? null;
  try {
    return await db.transaction(async (tx) => {
      await tx.execute(sql`select id from accounts where id = ${request.accountId} for share`);
      if (!(await findTransfer(tx, request.id))) {
        const card = await cardWorks(tx, { accountId: request.accountId, cardId: request.cardId, atm: request.atm });
        if (card !== 'works') return { result: card };
      }
      const moved = await move(tx);
      if (moved.result === 'created') await tx.insert(sandboxCardTransactions).values({ transferId: request.id, cardId });
      // Read after the move, which waited for a first call racing this one to commit its card. A
      // transaction made before the card was kept (migration 0015) has no row: any retry of it is its own.
      if (moved.result === 'exists') {
        const [first] = await tx.select().from(sandboxCardTransactions).where(eq(sandboxCardTransactions.transferId, request.id));
        if (first && first.cardId !== cardId) return { result: 'exists_with_different_fields' as const };
      }
      return moved;
    });
  } catch (error) {
    if (error instanceof Refused) return { result: error.result };
    throw error;
  }
}

const notFoundResults: readonly string[] = ['cardholder_not_found', 'pending_transfer_not_found', 'card_not_found'];

/**
 * A refused event, `{3, result}`: 404 for what does not exist, 422 for a key reused for another event
 * (the sender's mistake, as for the card API's Idempotency-Key), 409 for a state that does not allow it.
 */
const refuseEvent = (reply: FastifyReply, result: string) =>
  reply.code(notFoundResults.includes(result) ? 404 : result === 'exists_with_different_fields' ? 422 : 409).send({ statusCode: StatusCode.NOT_ALLOWED, result });

export function registerMoneyEvents(app: FastifyInstance, db: Database): void {
  app.post<{ Body: MoneyEvent }>('/events', { schema: { body: eventRequest } }, async (request, reply) => {
    const { type } = request.body;
    const event = { ...request.body, transactionId: request.body.transactionId && canonicalUuid(request.body.transactionId), cardId: request.body.cardId && canonicalUuid(request.body.cardId) };
    const missing = needs[type].filter((field) => event[field] === undefined);
    const unexpected = (Object.keys(request.body) as (keyof MoneyEvent)[]).filter((field) => field !== 'type' && !needs[type].includes(field) && !mayHave[type].includes(field));
    if (missing.length > 0 || unexpected.length > 0) {
      return reply.code(400).send({ statusCode: StatusCode.INVALID_PARAMETERS, ...(missing.length > 0 && { missing }), ...(unexpected.length > 0 && { unexpected }) });
    }
    const key = request.headers['idempotency-key'];
    // A key sent must be one the card API would take: an empty or mangled one read as none made each
    // retry a new event (a deposit twice).
    if (key !== undefined && (typeof key !== 'string' || !idempotencyKeyPattern.test(key))) {
      return reply.code(400).send({ statusCode: StatusCode.INVALID_PARAMETERS });
    }
    if (type === 'card.shipped' || type === 'card.delivered') {
      const moved = await (type === 'card.shipped' ? markShipped : markDelivered)(db, event.cardId!);
      if (moved.result === 'shipped' || moved.result === 'delivered') return { statusCode: StatusCode.SUCCESS, ...moved };
      return refuseEvent(reply, moved.result);
    }
    // One id per key for every type: the ledger then refuses the key for another kind of event as it
    // refuses another body. Swipes are rows of their own, so each side also looks at the other's table,
    // under the key's lock (lockEventId).
    const id = key !== undefined ? transferIdFor({ caller: 'sandbox', operation: 'POST /sandbox/events' }, key) : crypto.randomUUID();
    if (type === 'ebt.swipe') {
      const swiped = await ebtSwipe(db, { id, email: event.email!, swipeCents: event.amountCents!, merchant: event.merchant! });
      if (swiped.result === 'cardholder_not_found' || swiped.result === 'exists_with_different_fields') return refuseEvent(reply, swiped.result);
      return { statusCode: StatusCode.SUCCESS, result: 'reward_owed', ebtRewardOwed: swiped.owedAfterCents };
    }
    const { settlement } = systemLedgerAccounts;

    const answer = await db.transaction(async (tx) => {
      // Under the key's lock, as a swipe of the same key is made: one key is one event.
      await lockEventId(tx, id);
      if (await isEbtSwipe(tx, id)) return { result: 'exists_with_different_fields' } as const;
      if (type === 'card.settlement') return postPendingTransfer(tx, { id, pendingId: event.transactionId!, amountCents: event.amountCents });
      if (type === 'card.release') return voidPendingTransfer(tx, { id, pendingId: event.transactionId! });
      const holder = await cardAccountOf(tx, event.email!);
      if (!holder) return { result: 'cardholder_not_found' } as const;
      const accountId = holder.id;
      const cardholder = await openCardholderLedgerAccount(tx, accountId);
      const amountCents = event.amountCents!;
      const location = event.location ?? null;
      switch (type) {
        case 'card.authorization':
          return byCard(tx, { id, accountId, cardId: event.cardId, atm: false }, (cardTx) =>
            createTransfer(cardTx, {
              id, debit: cardholder, credit: settlement, amountCents, kind: 'purchase', counterparty: event.merchant!, location,
              phase: 'pending', timeoutSeconds: (event.holdDays ?? 7) * 86_400,
            }),
          );
        case 'card.refund':
          return createTransfer(tx, { id, debit: settlement, credit: cardholder, amountCents, kind: 'refund', counterparty: event.merchant!, location, phase: 'posted' });
        case 'deposit':
          // Checked before the ledger: a deposit for someone else moves nothing, under any key. A key that
          // already moved money is answered by the ledger instead, as for any retry: "refused" would tell
          // the payer nothing moved when it did (the payee is not kept, so a retry's is not compared).
          if (!payeeNameMatches(event.payee!, holder) && !(await findTransfer(tx, id))) return { result: 'name_mismatch' } as const;
          return createTransfer(tx, { id, debit: settlement, credit: cardholder, amountCents, kind: 'deposit', counterparty: event.payer!, location, phase: 'posted' });
        case 'atm.withdrawal':
          return byCard(tx, { id, accountId, cardId: event.cardId, atm: true }, (cardTx) =>
            withdrawCash(cardTx, { id, cardholder, amountCents, location, outOfNetwork: event.network === 'out' }),
          );
      }
    });

    if (answer.result === 'created' || answer.result === 'exists') {
      // A settlement or release answers the transaction it resolved: that is the one the cardholder sees.
      const transactionId = answer.transfer.pendingId ?? answer.transfer.id;
      return { statusCode: StatusCode.SUCCESS, result: answer.result, transactionId };
    }
    return refuseEvent(reply, answer.result);
  });

  /** The ledger's invariant report: every account sums to zero, each balance equals its transfers. */
  app.get('/ledger/report', async () => ({ statusCode: StatusCode.SUCCESS, report: await invariantReport(db) }));
}
