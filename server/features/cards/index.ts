/**
 * Cards (spec §4 card life, §7 card calls): thin handlers over cardLife.ts, which holds the rules and
 * runs each change in one transaction. Only the caller's cards are found (another's id answers 404
 * `{3}`); a change the card's state does not allow answers 403 `{3, reason}`. Ordering and replacing a
 * card move money (the fee, through the ledger) and need an Idempotency-Key. Activation tries are
 * counted in the database (attemptLimits.ts cardActivationPolicy). The card number, CVV and PIN never
 * pass through here: the processor's own pages show or set them (server/partners/processor.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { cardsRoutes as routes } from '../../../contract/cards/routes.ts';
import { cardsSchemas } from '../../../contract/cards/schemas.ts';
import type { CardRefusal, CardRefusalReason } from '../../../contract/cards/types.ts';
import { canonicalUuid, uuidPattern } from '../../../contract/rules.ts';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import { cardActivationPolicy } from '../../attemptLimits.ts';
import type { Services } from '../../services.ts';
import { badRequest, tooMany } from '../../shared/http.ts';
import { routeServer } from '../../shared/routeServer.ts';
import {
  activateCard,
  cardForPin,
  cardToActivate,
  markDelivered,
  markShipped,
  orderPhysicalCard,
  recordPinChange,
  reportCard,
  setFrozen,
} from './cardLife.ts';
import { ownCard } from './queries.ts';

export { accountCardsJsonSql, cardWorks } from './queries.ts';
export { markDelivered, markShipped };

/**
 * 403 {3, reason}, with what the refusal tells (wrong tries left, or the balance now). An
 * Idempotency-Key reused for another request is 422, as the IETF's Idempotency-Key header draft
 * ("Error Scenarios") says: the client's mistake, not the card's state.
 */
const refuse = (reply: FastifyReply, reason: CardRefusalReason, details: Pick<CardRefusal, 'attemptsLeft' | 'balanceCents'> = {}) => {
  const answer: CardRefusal = { statusCode: StatusCode.NOT_ALLOWED, reason, ...details };
  return reply.code(reason === 'idempotencyKeyReused' ? 422 : 403).send(answer);
};
const notFound = (reply: FastifyReply) => reply.code(404).send({ statusCode: StatusCode.NOT_ALLOWED });

/** A card id from the path: a malformed one is a bad request, not an unknown card. */
const cardIdParam = (request: FastifyRequest): string | null => {
  const id = (request.params as { id?: unknown }).id;
  return typeof id === 'string' && uuidPattern.test(id) ? canonicalUuid(id) : null;
};

export function cardsFeature(app: FastifyInstance, services: Services): void {
  const { serve } = routeServer(app, services, cardsSchemas);
  const { db, limits } = services;
  const { processor } = services.partners;
  // Every entry answers a broken rule as 400 {2} (the contract lists no field errors for cards).
  const options = { brokenRule: 'badRequest' } as const;

  const order = async (request: FastifyRequest, reply: FastifyReply, replaces?: string) => {
    // routeServer has checked the Idempotency-Key (both entries are `idempotent`).
    const ordered = await orderPhysicalCard(db, processor, { userId: request.access.userId, idempotencyKey: request.idempotencyKey, ...(replaces && { replaces }) });
    if (ordered.kind === 'notFound') return notFound(reply);
    if (ordered.kind === 'refused') return refuse(reply, ordered.reason, { balanceCents: ordered.balanceCents });
    return { statusCode: StatusCode.SUCCESS, card: ordered.card, feeCents: ordered.feeCents, balanceCents: ordered.balanceCents };
  };

  serve(routes.orderCard, (_body, request, reply) => order(request, reply), options);
  // The card replaced is compared with a keyed retry's (orderPhysicalCard): in the case it is kept in.
  serve(routes.replaceCard, ({ id }, request, reply) => order(request, reply, canonicalUuid(id)), options);

  const freeze = (frozen: boolean) => async ({ id }: { id: string }, request: FastifyRequest, reply: FastifyReply) => {
    const changed = await setFrozen(db, { userId: request.access.userId, cardId: id, frozen });
    if (changed.kind === 'notFound') return notFound(reply);
    if (changed.kind === 'refused') return refuse(reply, changed.reason);
    return { statusCode: StatusCode.SUCCESS, card: changed.card };
  };
  serve(routes.freezeCard, freeze(true), options);
  serve(routes.unfreezeCard, freeze(false), options);

  serve(
    routes.reportCard,
    async ({ id, status }, request, reply) => {
      const reported = await reportCard(db, processor, { userId: request.access.userId, cardId: id, status });
      if (reported.kind === 'notFound') return notFound(reply);
      if (reported.kind === 'refused') return refuse(reply, reported.reason);
      return { statusCode: StatusCode.SUCCESS, card: reported.card, replacement: reported.replacement };
    },
    options,
  );

  /**
   * The pending card's last 4 (and expiry, for activation) against what the cardholder typed. Each
   * try is counted before the comparison and given back when right; the wrong one that uses the last
   * try starts the 30-minute wait (429).
   */
  const checkTyped = async (request: FastifyRequest, reply: FastifyReply, typed: { lastFourCard: string; expiry?: string }) => {
    const { userId } = request.access;
    const match = await cardToActivate(db, userId);
    if (match.kind === 'notFound') return { done: notFound(reply) } as const;
    if (match.kind === 'refused') return { done: refuse(reply, match.reason) } as const;
    const tried = await limits.reserveTry(cardActivationPolicy, userId);
    if (!tried.reserved) return { done: tooMany(reply, tried.retryAfterSeconds) } as const;
    const mismatch =
      typed.lastFourCard.trim() !== match.lastFour ? 'lastFourMismatch' : typed.expiry !== undefined && typed.expiry.trim() !== match.expiry ? 'expiryMismatch' : null;
    if (!mismatch) {
      await limits.giveBack(cardActivationPolicy, userId);
      return { cardId: match.card.id } as const;
    }
    // Every wrong try is recorded (its time keeps the count going); the last starts the wait (unless a
    // right try given back meanwhile left one).
    if (tried.attemptsLeft > 0) {
      await limits.recordWrong(cardActivationPolicy, userId);
      return { done: refuse(reply, mismatch, { attemptsLeft: tried.attemptsLeft }) } as const;
    }
    const wait = await limits.lockWhenSpent(cardActivationPolicy, userId);
    return { done: wait > 0 ? tooMany(reply, wait) : refuse(reply, mismatch, { attemptsLeft: 0 }) } as const;
  };

  serve(
    routes.verifyCardLastFour,
    async ({ lastFourCard }, request, reply) => {
      const checked = await checkTyped(request, reply, { lastFourCard });
      return 'done' in checked ? checked.done : { statusCode: StatusCode.SUCCESS };
    },
    options,
  );

  serve(
    routes.activateCard,
    async ({ lastFourCard, expiry }, request, reply) => {
      const checked = await checkTyped(request, reply, { lastFourCard, expiry });
      if ('done' in checked) return checked.done;
      const activated = await activateCard(db, { userId: request.access.userId, cardId: checked.cardId });
      if (activated.kind === 'notFound') return notFound(reply);
      if (activated.kind === 'refused') return refuse(reply, activated.reason);
      await limits.reset(cardActivationPolicy, request.access.userId);
      return { statusCode: StatusCode.SUCCESS, card: activated.card };
    },
    options,
  );

  /** A blocked or stopped card has no image (url empty); any other card of the caller's has one on the processor's origin. */
  serve(routes.getCardImageUrl, async ({ locale }, request, reply) => {
    const id = cardIdParam(request);
    if (!id) return badRequest(reply);
    const card = await ownCard(db, request.access.userId, id);
    if (!card) return notFound(reply);
    const shown = card.isActive || card.isPending;
    return { statusCode: StatusCode.SUCCESS, url: shown ? processor.cardImageUrl({ cardId: card.id, locale: locale ?? 'en' }) : '' };
  });

  /** Only the caller's virtual card in use: its number, expiry and CVV on the processor's page. */
  serve(routes.getCardDetailsUrl, async ({ locale }, request, reply) => {
    const id = cardIdParam(request);
    if (!id) return badRequest(reply);
    const card = await ownCard(db, request.access.userId, id);
    if (!card) return notFound(reply);
    if (card.type !== 'VIRTUAL' || !card.isActive) return refuse(reply, 'notAllowed');
    return { statusCode: StatusCode.SUCCESS, url: await processor.cardDetailsUrl({ cardId: card.id, locale: locale ?? 'en' }) };
  });

  serve(
    routes.getPinChangeFormUrl,
    async ({ cardId, pin, locale }, request, reply) => {
      const card = await cardForPin(db, request.access.userId, cardId);
      if ('kind' in card) return card.kind === 'notFound' ? notFound(reply) : refuse(reply, card.reason);
      return { statusCode: StatusCode.SUCCESS, url: await processor.pinChangeFormUrl({ cardId: card.id, pin, locale: locale ?? 'en' }) };
    },
    options,
  );

  /**
   * Recorded only when the processor confirms its form set that PIN for that card, at the time it first
   * confirmed it: the same call sent again (its answer lost) is answered the same and records nothing new.
   */
  serve(
    routes.commitPinChange,
    async ({ cardId, pin }, request, reply) => {
      const card = await ownCard(db, request.access.userId, cardId);
      if (!card) return notFound(reply);
      const confirmedAt = await processor.confirmPinChange({ cardId, pin });
      if (!confirmedAt) return refuse(reply, 'notAllowed');
      await recordPinChange(db, { cardId, pin, now: confirmedAt });
      return { statusCode: StatusCode.SUCCESS };
    },
    options,
  );
}
