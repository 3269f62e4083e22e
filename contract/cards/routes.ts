/**
 * Cards' calls (spec §7): order, activate, lock and unlock, lost or stolen, replace, and the
 * processor's pages (card image, card details, PIN form). Every state change is a server-side rule:
 * only the caller's own cards (another's id answers 404), only allowed transitions (403 `{3, reason}`).
 * Money-moving calls (orderCard, replaceCard: the card fee through the ledger) need an Idempotency-Key.
 */
import type { TooManyAnswer } from '../shared/answers.ts';
import { route } from '../shared/route.ts';
import type {
  ActivationAnswer,
  ActivationForm,
  CardAnswer,
  CardDetailsQuery,
  CardIdRequest,
  CardRefusal,
  CommitPinChangeRequest,
  LastFourRequest,
  OrderCardAnswer,
  PinChangeFormQuery,
  ReportCardAnswer,
  ReportCardRequest,
  UnknownCard,
  UrlAnswer,
} from './types.ts';
import type { StatusAnswer } from '../shared/answers.ts';

export const cardsRoutes = {
  /** A physical card, $5 from the balance (Idempotency-Key; a replay answers the first result). */
  orderCard: route<Record<string, never>, OrderCardAnswer | CardRefusal>({
    name: 'orderCard',
    method: 'POST',
    path: '/order-card',
    caller: 'accessToken',
    idempotent: true,
    answers: { 200: [0], 400: [2], 401: [103, 104], 403: [3], 422: [3] },
  }),
  verifyCardLastFour: route<LastFourRequest, StatusAnswer | CardRefusal | TooManyAnswer>({
    name: 'verifyCardLastFour',
    method: 'POST',
    path: '/verify/card-last-four',
    caller: 'accessToken',
    answers: { 200: [0], 400: [2], 401: [103, 104], 403: [3], 429: [201] },
  }),
  /** 403 is expected (spec §7): a mismatch or a card that cannot be activated. */
  activateCard: route<ActivationForm, ActivationAnswer>({
    name: 'activateCard',
    method: 'POST',
    path: '/activate-card',
    caller: 'accessToken',
    answers: { 200: [0], 400: [2], 401: [103, 104], 403: [3], 429: [201] },
  }),
  freezeCard: route<CardIdRequest, CardAnswer | CardRefusal | UnknownCard>({
    name: 'freezeCard',
    method: 'POST',
    path: '/card/freeze',
    caller: 'accessToken',
    answers: { 200: [0], 400: [2], 401: [103, 104], 403: [3], 404: [3] },
  }),
  unfreezeCard: route<CardIdRequest, CardAnswer | CardRefusal | UnknownCard>({
    name: 'unfreezeCard',
    method: 'POST',
    path: '/card/unfreeze',
    caller: 'accessToken',
    answers: { 200: [0], 400: [2], 401: [103, 104], 403: [3], 404: [3] },
  }),
  /** Blocks the card for every card and ATM transaction at once and sends a replacement free of charge. */
  reportCard: route<ReportCardRequest, ReportCardAnswer | CardRefusal | UnknownCard>({
    name: 'reportCard',
    method: 'POST',
    path: '/card/report-lost-stolen',
    caller: 'accessToken',
    answers: { 200: [0], 400: [2], 401: [103, 104], 403: [3], 404: [3] },
  }),
  /** A damaged card: a new one for the card replacement fee (Idempotency-Key); the old one works until the new one ships. */
  replaceCard: route<CardIdRequest, OrderCardAnswer | CardRefusal | UnknownCard>({
    name: 'replaceCard',
    method: 'POST',
    path: '/card/replace',
    caller: 'accessToken',
    idempotent: true,
    answers: { 200: [0], 400: [2], 401: [103, 104], 403: [3], 404: [3], 422: [3] },
  }),
  /** The card's image on the processor's origin; url is empty when there is none. */
  getCardImageUrl: route<CardDetailsQuery, UrlAnswer | UnknownCard>({
    name: 'getCardImageUrl',
    method: 'GET',
    path: '/card/image-url/{id}',
    caller: 'accessToken',
    answers: { 200: [0], 400: [2], 401: [103, 104], 404: [3] },
  }),
  /** The virtual card's number, expiry and CVV, shown only by the processor's own page (never in this API's JSON). */
  getCardDetailsUrl: route<CardDetailsQuery, UrlAnswer | CardRefusal | UnknownCard>({
    name: 'getCardDetailsUrl',
    method: 'GET',
    path: '/card/details-url/{id}',
    caller: 'accessToken',
    answers: { 200: [0], 400: [2], 401: [103, 104], 403: [3], 404: [3] },
  }),
  /** The processor's hosted PIN form for one card, with a single-use token. */
  getPinChangeFormUrl: route<PinChangeFormQuery, UrlAnswer | CardRefusal | UnknownCard>({
    name: 'getPinChangeFormUrl',
    method: 'GET',
    path: '/pin-change-form-url',
    caller: 'accessToken',
    answers: { 200: [0], 400: [2], 401: [103, 104], 403: [3], 404: [3] },
  }),
  /**
   * Records a PIN the processor confirmed set (its form reported 0); the same call again within the
   * processor's 15 minutes (its answer lost) is answered the same; 403 when the processor has no such change.
   */
  commitPinChange: route<CommitPinChangeRequest, StatusAnswer | CardRefusal | UnknownCard>({
    name: 'commitPinChange',
    method: 'POST',
    path: '/commit-pin-change',
    caller: 'accessToken',
    answers: { 200: [0], 400: [2], 401: [103, 104], 403: [3], 404: [3] },
  }),
};
