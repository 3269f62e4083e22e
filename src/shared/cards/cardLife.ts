/** What a card's life allows (spec §4 card life), acted on alike by home and the cards screens. */
import type { Card } from '../../../contract/cards/types.ts';

/**
 * A card the cardholder can activate: pending and shipped (the card API refuses one not shipped yet,
 * which cannot be in their hands).
 */
export const isReadyToActivate = (card: Card) => card.isPending && card.delivery?.shippedOn != null;

/** The search of a link to /activate for the card: a replacement says so. */
export const activationSearch = (card: Card): { isReplacement?: 'true' } => (card.replacesCardId ? { isReplacement: 'true' } : {});
