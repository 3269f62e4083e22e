/** Cards' calls (spec §7), made from their route table over the app's API client. */
import { cardsRoutes as cards } from '../../../contract/cards/routes.ts';
import type { ActivationForm, PinKind, ReportCardRequest } from '../../../contract/cards/types.ts';
import type { Api } from '../../shared/api/client.ts';

export type CardsCalls = ReturnType<typeof cardsCalls>;

/** Money-moving calls carry the Idempotency-Key their chart made once per attempt, so a retry has one effect. */
const idempotent = (idempotencyKey: string) => ({ headers: { 'Idempotency-Key': idempotencyKey } });
/** Spec §8: lock and unlock failures are said on the card, never in the generic error modal. */
const quiet = { suppressErrorModal: true };

export function cardsCalls({ call }: Api) {
  return {
    /** `{0, card, feeCents}`, or 403 `{3, reason}` (insufficientFunds, cardPending); 422 `{3, idempotencyKeyReused}`. */
    orderCard: (idempotencyKey: string) => call(cards.orderCard, {}, idempotent(idempotencyKey)),
    /** A damaged card's replacement for the replacement fee; answers as orderCard. */
    replaceCard: (id: string, idempotencyKey: string) => call(cards.replaceCard, { id }, idempotent(idempotencyKey)),
    /** `{0}`, 403 `{3, reason: 'lastFourMismatch', attemptsLeft}` or another reason, 429 `{201, retryAfterSeconds}`. */
    verifyCardLastFour: (lastFourCard: string) => call(cards.verifyCardLastFour, { lastFourCard }),
    /** `{0, card}`; 403 is expected (spec §7): `{3, reason}`; 429 `{201, retryAfterSeconds}`. */
    activateCard: ({ lastFourCard, expiry }: ActivationForm) => call(cards.activateCard, { lastFourCard, expiry }),
    freezeCard: (id: string) => call(cards.freezeCard, { id }, quiet),
    unfreezeCard: (id: string) => call(cards.unfreezeCard, { id }, quiet),
    /** `{0, card, replacement}`: the card blocked and its replacement on its way. */
    reportCard: ({ id, status }: ReportCardRequest) => call(cards.reportCard, { id, status }),
    /** `{0, url}`, url empty when the card has no image. */
    getCardImageUrl: (id: string, locale: 'en' | 'es') => call(cards.getCardImageUrl, { locale }, { pathParams: { id }, suppressErrorModal: true }),
    getCardDetailsUrl: (id: string, locale: 'en' | 'es') => call(cards.getCardDetailsUrl, { locale }, { pathParams: { id } }),
    getPinChangeFormUrl: (cardId: string, pin: PinKind, locale: 'en' | 'es') => call(cards.getPinChangeFormUrl, { cardId, pin, locale }),
    commitPinChange: (cardId: string, pin: PinKind) => call(cards.commitPinChange, { cardId, pin }),
  };
}
