/**
 * A card's life (spec §4), as server-side rules: ordered (the $5 fee) → SHIPPED and pending, with a
 * delivery window of 10 to 15 US business days → shipped (sandbox event card.shipped) → activated with
 * its last 4 and expiry → ACTIVE; locked and unlocked by the cardholder while it works; LOST or STOLEN
 * for good once reported (blocked at once, a replacement sent free of charge); a damaged card replaced
 * for the replacement fee. A replacement stops the card it replaces once it ships or is activated.
 *
 * Every change runs in one transaction that first locks the cardholder's account row, so the changes
 * of one account happen one at a time: two orders sent together cannot both pass "one pending physical
 * card" (the database's partial unique index refuses it too), and an order's fee and its card are
 * written together or not at all (the fee through the ledger, in a savepoint of the same transaction).
 * Only the caller's cards are found; a refusal names its reason (contract CardRefusalReason).
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Card, CardRefusalReason, PinKind } from '../../../contract/cards/types.ts';
import { cardDeliveryWindow, usCalendarDay } from '../../../contract/shared/businessDays.ts';
import { type FeeName, fees } from '../../../contract/shared/fees.ts';
import type { Database } from '../../db/database.ts';
import { cards } from '../../db/schema/index.ts';
import type { CardProcessor } from '../../partners/processor.ts';
import { sqlStateOf } from '../../shared/errorLog.ts';
import { balances, createTransfer, openCardholderLedgerAccount, systemLedgerAccounts, transferIdFor } from '../ledger/index.ts';
import { type CardState, hasWorkingPhysicalCard, loadCard, ownCard, pendingCardOf } from './queries.ts';

export type Refused = { kind: 'refused'; reason: CardRefusalReason; balanceCents?: number };
export type NotFound = { kind: 'notFound' };

const refused = (reason: CardRefusalReason): Refused => ({ kind: 'refused', reason });

async function rowsOf<T>(db: Database, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/**
 * Runs `work` in a transaction holding the caller's account row (FOR NO KEY UPDATE: card changes of
 * one account wait for each other; nothing else does). Null when the caller has no account.
 */
async function withAccountLocked<R>(db: Database, userId: string, work: (tx: Database, accountId: string) => Promise<R>): Promise<R | NotFound> {
  return db.transaction(async (tx) => {
    const [account] = await rowsOf<{ id: string }>(tx, sql`select id from accounts where user_id = ${userId} for no key update`);
    if (!account) return { kind: 'notFound' } as const;
    return work(tx, account.id);
  });
}

/** A new physical card on its way: pending, SHIPPED, its delivery window counted from today. */
async function insertPhysicalCard(
  tx: Database,
  processor: CardProcessor,
  card: { accountId: string; now: Date; replacesCardId: string | null; feeTransferId: string | null },
): Promise<string> {
  const window = cardDeliveryWindow(usCalendarDay(card.now));
  const printed = await processor.issuePhysicalCard(card.now);
  const [inserted] = await tx
    .insert(cards)
    .values({
      accountId: card.accountId,
      type: 'PHYSICAL',
      status: 'SHIPPED',
      isPending: true,
      lastFour: printed.lastFour,
      expiry: printed.expiry,
      orderedAt: card.now,
      deliveryEarliest: window.earliest,
      deliveryLatest: window.latest,
      replacesCardId: card.replacesCardId,
      feeTransferId: card.feeTransferId,
    })
    .returning({ id: cards.id });
  return inserted!.id;
}

export type Order = { kind: 'ordered'; card: Card; feeCents: number; balanceCents: number };

/**
 * The available balance as home shows it (posted less what is on hold; no cushion), in the order's
 * transaction. Home's query (features/home/queries.ts) says the same in SQL: change both together.
 */
async function balanceShown(tx: Database, accountId: string, now: Date): Promise<number> {
  const balance = await balances(tx, await openCardholderLedgerAccount(tx, accountId), now);
  return balance ? balance.postedCents - balance.pendingDebitsCents : 0;
}

/**
 * A physical card for a fee, idempotent by `idempotencyKey`: a new physical card (`replaces`
 * undefined, POST /order-card) or a damaged card's replacement (POST /card/replace). The fee's
 * transfer id comes from the caller, the call and the key, and the card stores it (unique): a replay
 * of the same request answers the card it made, a replay with another card id is refused
 * (idempotencyKeyReused), whether it arrives later or at the same moment (the account's lock).
 */
export async function orderPhysicalCard(
  db: Database,
  processor: CardProcessor,
  request: { userId: string; idempotencyKey: string; replaces?: string; now?: Date },
): Promise<Order | Refused | NotFound> {
  const now = request.now ?? new Date();
  const replacing = request.replaces !== undefined;
  const feeCents = replacing ? fees.cardReplacement.cents : fees.physicalCard.cents;
  const operation = replacing ? 'POST /card/replace' : 'POST /order-card';
  const feeTransferId = transferIdFor({ caller: request.userId, operation }, request.idempotencyKey);
  try {
    return await withAccountLocked(db, request.userId, async (tx, accountId) => {
      // A replay: the card this key made (in the caller's account: the id is derived from the caller).
      const [earlier] = await rowsOf<{ id: string; replacesCardId: string | null; feeCents: number }>(
        tx,
        sql`select c.id, c.replaces_card_id as "replacesCardId", t.amount_cents::int as "feeCents"
          from cards c join transfers t on t.id = c.fee_transfer_id where c.fee_transfer_id = ${feeTransferId}`,
      );
      if (earlier) {
        if (replacing && earlier.replacesCardId !== request.replaces) return refused('idempotencyKeyReused');
        return { kind: 'ordered', card: await loadCard(tx, earlier.id), feeCents: earlier.feeCents, balanceCents: await balanceShown(tx, accountId, now) } as const;
      }

      const old = replacing ? await ownCard(tx, request.userId, request.replaces!) : null;
      if (replacing && !old) return { kind: 'notFound' } as const;
      if (old && old.type !== 'PHYSICAL') return refused('notAllowed');
      // Before "not in use" and "already replaced": a card whose replacement another tab or device has
      // just ordered, or that was reported lost or stolen there (its free replacement on its way), is
      // answered as that card being on its way, not as a card to report lost or stolen.
      if (await pendingCardOf(tx, accountId)) return refused('cardPending');
      // Only a physical card in use (not pending, blocked or stopped).
      if (old && (!old.isActive || old.replacedByCardId !== null)) return refused('notAllowed');
      // One physical card at a time: a working one is replaced (damaged) or reported (lost, stolen), not ordered again.
      if (!replacing && (await hasWorkingPhysicalCard(tx, accountId))) return refused('notAllowed');

      const fee = await createTransfer(tx, {
        id: feeTransferId,
        debit: await openCardholderLedgerAccount(tx, accountId),
        credit: systemLedgerAccounts.fee_revenue,
        amountCents: feeCents,
        kind: 'fee',
        counterparty: (replacing ? 'cardReplacement' : 'physicalCard') satisfies FeeName,
        phase: 'posted',
        // Timed under the lock (Ledger.now) unless the caller states a time.
        now: request.now,
      });
      if (fee.result === 'exceeds_credits') return { ...refused('insufficientFunds'), balanceCents: await balanceShown(tx, accountId, now) };
      // The key's transfer exists without a card: it was used for something else.
      if (fee.result === 'exists' || fee.result === 'exists_with_different_fields') return refused('idempotencyKeyReused');
      if (fee.result !== 'created') throw new Error(`The card fee could not be posted: ${fee.result}`);

      const cardId = await insertPhysicalCard(tx, processor, { accountId, now, replacesCardId: request.replaces ?? null, feeTransferId });
      return { kind: 'ordered', card: await loadCard(tx, cardId), feeCents, balanceCents: await balanceShown(tx, accountId, now) } as const;
    });
  } catch (error) {
    // The database's own guard (cards_one_pending_physical), should the lock ever be bypassed: nothing was written.
    if (sqlStateOf(error) === '23505') return refused('cardPending');
    throw error;
  }
}

export type Changed = { kind: 'changed'; card: Card };

/** Lock (freeze) or unlock a card in use; asking for the state it is already in changes nothing and answers it. */
export async function setFrozen(db: Database, request: { userId: string; cardId: string; frozen: boolean }): Promise<Changed | Refused | NotFound> {
  return withAccountLocked(db, request.userId, async (tx) => {
    const card = await ownCard(tx, request.userId, request.cardId);
    if (!card) return { kind: 'notFound' } as const;
    // A pending, lost, stolen or stopped card cannot be locked or unlocked: it does not work either way.
    if (!card.isActive) return refused('notAllowed');
    if (card.frozen !== request.frozen) await tx.execute(sql`update cards set frozen = ${request.frozen} where id = ${card.id}`);
    return { kind: 'changed', card: await loadCard(tx, card.id) } as const;
  });
}

export type Reported = { kind: 'reported'; card: Card; replacement: Card };

/**
 * Lost or stolen: the physical card is blocked at once (for good: it can never be unlocked) and a
 * replacement is on its way free of charge; a card not shipped yet cannot be reported (`notShipped`).
 * When a physical card is already on its way (one at a time), that card is the replacement. Reporting
 * a card again as what it was reported answers the same; as the other (lost, then stolen) is refused.
 */
export async function reportCard(
  db: Database,
  processor: CardProcessor,
  request: { userId: string; cardId: string; status: 'LOST' | 'STOLEN'; now?: Date },
): Promise<Reported | Refused | NotFound> {
  const now = request.now ?? new Date();
  return withAccountLocked(db, request.userId, async (tx, accountId) => {
    const card = await ownCard(tx, request.userId, request.cardId);
    if (!card) return { kind: 'notFound' } as const;
    if (card.type !== 'PHYSICAL') return refused('notAllowed');
    if (card.status === request.status && card.replacedByCardId) {
      return { kind: 'reported', card: await loadCard(tx, card.id), replacement: await loadCard(tx, card.replacedByCardId) } as const;
    }
    if ((card.status !== 'ACTIVE' && card.status !== 'SHIPPED') || card.stopped) return refused('notAllowed');
    // Still with the processor, it cannot have been lost or stolen; reported anyway it was swapped for
    // a new free card, itself unshipped and reportable, without end. Once it has shipped (lost in the
    // mail) it can be reported.
    if (card.isPending && card.shippedOn === null) return refused('notShipped');

    await tx.execute(sql`update cards set status = ${request.status}, is_active = false, is_pending = false where id = ${card.id}`);
    // A card whose earlier replacement was itself lost before it shipped keeps that link (one replacement per card).
    const replacementId =
      (await replacementOnItsWay(tx, accountId, card)) ??
      (await insertPhysicalCard(tx, processor, { accountId, now, replacesCardId: card.replacedByCardId ? null : card.id, feeTransferId: null }));
    return { kind: 'reported', card: await loadCard(tx, card.id), replacement: await loadCard(tx, replacementId) } as const;
  });
}

/** The physical card already on its way, made the replacement of `card` when neither has one yet. */
async function replacementOnItsWay(tx: Database, accountId: string, card: CardState): Promise<string | null> {
  const pending = await pendingCardOf(tx, accountId);
  if (!pending) return null;
  if (pending.replacesCardId === null && card.replacedByCardId === null) await tx.execute(sql`update cards set replaces_card_id = ${card.id} where id = ${pending.id}`);
  return pending.id;
}

/**
 * The card `replacement` replaces stops working (once it ships or is activated), and so does every
 * card before it in the chain: a replacement reported lost before it shipped is itself replaced, and
 * the damaged card it was to replace still works until the new one ships. A card stopped already
 * stays as it is.
 */
async function stopReplacedCard(tx: Database, replacement: { replacesCardId: string | null }, now: Date): Promise<void> {
  if (!replacement.replacesCardId) return;
  await tx.execute(sql`with recursive replaced(id, replaces_card_id) as (
      select id, replaces_card_id from cards where id = ${replacement.replacesCardId}
      union
      select c.id, c.replaces_card_id from cards c join replaced r on c.id = r.replaces_card_id
    )
    update cards set is_active = false, stopped_at = ${now.toISOString()}::timestamptz
    where id in (select id from replaced) and stopped_at is null`);
}

/** What the cardholder typed, against the pending card's last 4 (and expiry, for activation). */
export type CardMatch = { kind: 'pending'; card: CardState; lastFour: string; expiry: string } | Refused;

/** The pending physical card to activate: refused when there is none or it has not shipped (it cannot be in the cardholder's hands). */
export async function cardToActivate(db: Database, userId: string): Promise<CardMatch | NotFound> {
  const [row] = await rowsOf<{ accountId: string }>(db, sql`select id as "accountId" from accounts where user_id = ${userId}`);
  if (!row) return { kind: 'notFound' };
  const card = await pendingCardOf(db, row.accountId);
  if (!card) return refused('noPendingCard');
  if (card.shippedOn === null) return refused('notShipped');
  const [printed] = await rowsOf<{ lastFour: string; expiry: string }>(db, sql`select last_four as "lastFour", expiry from cards where id = ${card.id}`);
  return { kind: 'pending', card, ...printed! };
}

/**
 * Activates the pending card whose last 4 and expiry matched: ACTIVE and working, its last 4 shown
 * from now on; a replacement stops the card it replaces. Refused when it is no longer pending (a
 * parallel activation won).
 */
export async function activateCard(db: Database, request: { userId: string; cardId: string; now?: Date }): Promise<Changed | Refused | NotFound> {
  const now = request.now ?? new Date();
  return withAccountLocked(db, request.userId, async (tx) => {
    const [activated] = await rowsOf<{ replacesCardId: string | null }>(
      tx,
      sql`update cards set status = 'ACTIVE', is_active = true, is_pending = false, frozen = false
        where id = ${request.cardId} and is_pending and shipped_on is not null returning replaces_card_id as "replacesCardId"`,
    );
    if (!activated) return refused('noPendingCard');
    await stopReplacedCard(tx, activated, now);
    return { kind: 'changed', card: await loadCard(tx, request.cardId) } as const;
  });
}

/** Physical cards the PIN form may set a PIN for: in use (activated, not lost, stolen or stopped; locked or not). */
export async function cardForPin(db: Database, userId: string, cardId: string): Promise<CardState | Refused | NotFound> {
  const card = await ownCard(db, userId, cardId);
  if (!card) return { kind: 'notFound' };
  return card.type === 'PHYSICAL' && card.isActive ? card : refused('notAllowed');
}

/**
 * Records a PIN change the processor confirmed (its hosted form reported success for this card), at the
 * time it confirmed it: recording the same confirmation again changes nothing.
 */
export async function recordPinChange(db: Database, request: { cardId: string; pin: PinKind; now?: Date }): Promise<void> {
  const at = (request.now ?? new Date()).toISOString();
  await db.execute(
    request.pin === 'card'
      ? sql`update cards set pin_changed_at = ${at}::timestamptz where id = ${request.cardId}`
      : sql`update cards set atm_pin_changed_at = ${at}::timestamptz where id = ${request.cardId}`,
  );
}

// The processor and the carrier (sandbox events) ------------------------------------------------------

export type Shipment =
  | { result: 'shipped' | 'delivered'; cardId: string; lastFour: string; expiry: string }
  | { result: 'card_not_found' | 'not_pending' | 'already_shipped' | 'not_shipped' | 'already_delivered' };

/**
 * The processor reports a pending card shipped (today, US time): the card it replaces stops now (spec
 * §4: "the old card stops once the new one ships"). Answers what is printed on it (the sandbox's
 * stand-in for the card in the cardholder's hands).
 */
export async function markShipped(db: Database, cardId: string, now = new Date()): Promise<Shipment> {
  return db.transaction(async (tx) => {
    // The account's lock first, as every card change takes it, then the card as it is under it.
    const [account] = await rowsOf<{ id: string }>(
      tx,
      sql`select a.id from accounts a join cards c on c.account_id = a.id where c.id = ${cardId} for no key update of a`,
    );
    if (!account) return { result: 'card_not_found' } as const;
    const [card] = await rowsOf<{ isPending: boolean; shippedOn: string | null; replacesCardId: string | null; lastFour: string; expiry: string }>(
      tx,
      sql`select is_pending as "isPending", shipped_on::text as "shippedOn", replaces_card_id as "replacesCardId", last_four as "lastFour", expiry
        from cards where id = ${cardId}`,
    );
    if (!card!.isPending) return { result: 'not_pending' } as const;
    if (card!.shippedOn !== null) return { result: 'already_shipped' } as const;
    await tx.execute(sql`update cards set shipped_on = ${usCalendarDay(now)}::date where id = ${cardId}`);
    await stopReplacedCard(tx, card!, now);
    return { result: 'shipped', cardId, lastFour: card!.lastFour, expiry: card!.expiry } as const;
  });
}

/** The carrier reports a shipped card delivered (today, US time). */
export async function markDelivered(db: Database, cardId: string, now = new Date()): Promise<Shipment> {
  const [card] = await rowsOf<{ shippedOn: string | null; deliveredOn: string | null; lastFour: string; expiry: string }>(
    db,
    sql`select shipped_on::text as "shippedOn", delivered_on::text as "deliveredOn", last_four as "lastFour", expiry from cards where id = ${cardId}`,
  );
  if (!card) return { result: 'card_not_found' };
  if (card.shippedOn === null) return { result: 'not_shipped' };
  if (card.deliveredOn !== null) return { result: 'already_delivered' };
  await db.execute(sql`update cards set delivered_on = ${usCalendarDay(now)}::date where id = ${cardId} and delivered_on is null`);
  return { result: 'delivered', cardId, lastFour: card.lastFour, expiry: card.expiry };
}
