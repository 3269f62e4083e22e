/**
 * Cards (spec §3 card and activation form, §4 card life, §7 card calls): what the card API says about a
 * cardholder's cards. The card number, CVV and PIN never pass through the card API: they live with the
 * card processor, whose own pages show or set them (a hosted page on its own origin).
 */
import type { StatusAnswer, TooManyAnswer } from '../shared/answers.ts';
import type { StatusCode } from '../shared/statusCodes.ts';

export type CardType = 'VIRTUAL' | 'PHYSICAL';
/** Spec §3. A physical card ordered or on its way is SHIPPED (and isPending) until it is activated. */
export type CardStatus = 'ACTIVE' | 'LOST' | 'SHIPPED' | 'STOLEN';

/** A physical card's trip: the business-day window it should arrive in, and what the processor reported. Dates are 'YYYY-MM-DD'. */
export type CardDelivery = {
  /** 10 business days after the order (US federal holidays excluded). */
  earliest: string;
  /** 15 business days after the order. */
  latest: string;
  /** Null until the processor reports the card shipped (sandbox event card.shipped). */
  shippedOn: string | null;
  /** Null until the carrier reports it delivered (sandbox event card.delivered). */
  deliveredOn: string | null;
  /** The fee taken from the balance when it was ordered, in cents; 0 when it is sent free (a lost or stolen card's replacement). */
  feeCents: number;
};

export type Card = {
  id: string;
  type: CardType;
  status: CardStatus;
  /** Locked by the cardholder (temporary, reversible). */
  frozen: boolean;
  /** Can be used: activated, not lost or stolen, not stopped by its replacement. */
  isActive: boolean;
  /** A physical card ordered and not yet activated. */
  isPending: boolean;
  /** Null while the card is pending: the cardholder proves they hold it by typing it. */
  lastFour: string | null;
  /** A physical card not yet activated; null otherwise. */
  delivery: CardDelivery | null;
  /** For a replacement: the card it replaces (stopped once this one ships or is activated). */
  replacesCardId: string | null;
  /** For a card replaced: the new card's id. */
  replacedByCardId: string | null;
};

/** Spec §3 activation form: the last 4 digits and the expiry 'MM/YY' printed on the card. */
export type ActivationForm = { lastFourCard: string; expiry: string };

/**
 * Why the card API refused a card call (403 `{3, reason}`); a view says it in the reader's language.
 * - insufficientFunds: the balance does not cover the fee (nothing was charged).
 * - cardPending: a physical card is already on its way (one at a time).
 * - notAllowed: the card's state does not allow this (unlock a lost card, lock a stopped one, …).
 * - noPendingCard: nothing awaits activation.
 * - notShipped: the card has not shipped yet, so it cannot be in the cardholder's hands.
 * - lastFourMismatch / expiryMismatch: the typed digits do not match the card (attemptsLeft counts down).
 * - idempotencyKeyReused: the same Idempotency-Key was sent with a different request.
 */
export type CardRefusalReason =
  | 'insufficientFunds'
  | 'cardPending'
  | 'notAllowed'
  | 'noPendingCard'
  | 'notShipped'
  | 'lastFourMismatch'
  | 'expiryMismatch'
  | 'idempotencyKeyReused';

export type CardRefusal = {
  statusCode: typeof StatusCode.NOT_ALLOWED;
  reason: CardRefusalReason;
  /** For a mismatch: wrong tries left before the 429 wait. */
  attemptsLeft?: number;
  /** For insufficientFunds: the available balance now, as home shows it (the flow's may be older). */
  balanceCents?: number;
};

/** 404 `{3}`: the caller has no card with that id (another cardholder's card is answered alike). */
export type UnknownCard = { statusCode: typeof StatusCode.NOT_ALLOWED };

export type CardAnswer = StatusAnswer & { card: Card };
/**
 * A new card ordered (or sent as a replacement): the card, the fee taken in cents (0 when none), and
 * the available balance after it, as home shows it (now, on a retry with the same key).
 */
export type OrderCardAnswer = StatusAnswer & { card: Card; feeCents: number; balanceCents: number };
/** Lost or stolen: the blocked card and its replacement, already ordered. */
export type ReportCardAnswer = StatusAnswer & { card: Card; replacement: Card };
/** A processor page's address (card image, PIN form, card details); empty when there is none. */
export type UrlAnswer = StatusAnswer & { url: string };

export type CardIdRequest = { id: string };
export type ReportCardRequest = { id: string; status: 'LOST' | 'STOLEN' };
export type LastFourRequest = Pick<ActivationForm, 'lastFourCard'>;
/** Which PIN the processor's page sets: the card's PIN, or the ATM PIN. */
export type PinKind = 'card' | 'atm';
export type PinChangeFormQuery = { cardId: string; pin: PinKind; locale?: 'en' | 'es' };
/** The processor's card details page and card image speak the reader's language (English when absent). */
export type CardDetailsQuery = { locale?: 'en' | 'es' };
export type CommitPinChangeRequest = { cardId: string; pin: PinKind };

export type ActivationAnswer = CardAnswer | CardRefusal | TooManyAnswer;

/**
 * What the processor's hosted PIN page posts to its parent (spec §4): a number, and only from the
 * processor's exact origin (AppConfig.processorOrigins).
 */
export const PinChangeResult = { SUCCESS: 0, TOKEN_EXPIRED: -10, TOKEN_CHANGED: -11 } as const;
