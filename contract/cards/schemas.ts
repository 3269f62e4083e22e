/** The request schemas of contract/cards/routes.ts (the server and the OpenAPI document use them; the web app does not). */
import { object, string } from 'yup';
import { uuidPattern } from '../rules.ts';
import type { RequestSchemas, RouteSummaries } from '../shared/route.ts';
import { activationSchema, lastFourSchema } from '../validation.ts';
import type { cardsRoutes } from './routes.ts';

const cardId = string().defined().matches(uuidPattern);
const pinKind = string().defined().oneOf(['card', 'atm'] as const);
/** The language of a processor page the app opens, or of the card image it shows. */
const locale = string().oneOf(['en', 'es'] as const);

export const cardsSchemas = {
  orderCard: object({}).noUnknown(),
  verifyCardLastFour: lastFourSchema,
  activateCard: activationSchema,
  freezeCard: object({ id: cardId }).noUnknown(),
  unfreezeCard: object({ id: cardId }).noUnknown(),
  reportCard: object({ id: cardId, status: string().defined().oneOf(['LOST', 'STOLEN'] as const) }).noUnknown(),
  replaceCard: object({ id: cardId }).noUnknown(),
  getCardImageUrl: object({ locale }).noUnknown(),
  getCardDetailsUrl: object({ locale }).noUnknown(),
  getPinChangeFormUrl: object({ cardId, pin: pinKind, locale }).noUnknown(),
  commitPinChange: object({ cardId, pin: pinKind }).noUnknown(),
} satisfies RequestSchemas<typeof cardsRoutes>;

/** What each call does, in one line: the OpenAPI document's summaries and docs/api.md's (never in the web app's bundle). */
export const cardsSummaries = {
  orderCard:
    'Order a physical card: the $5 fee is taken from the balance through the ledger (Idempotency-Key required; a replay answers the first result). Answers the card, the fee and the balance after it (as home shows it, now). Refused (403) when the balance does not cover it or a physical card is already on its way.',
  verifyCardLastFour: "Check the last 4 digits of the pending card before activation; wrong tries are counted in the database and limited (429).",
  activateCard:
    'Activate the pending physical card with its last 4 digits and expiry (403 on a mismatch, counted and limited); activating a replacement stops the card it replaces.',
  freezeCard: 'Lock one of the caller\'s cards (temporary, reversible); answers the card.',
  unfreezeCard: 'Unlock one of the caller\'s cards; a lost, stolen or stopped card cannot be unlocked.',
  reportCard: 'Report a physical card lost or stolen: it is blocked for all card and ATM transactions at once and a replacement is sent free of charge.',
  replaceCard:
    'Replace a damaged physical card for the card replacement fee (Idempotency-Key required); answers as /order-card. The old card keeps working until the new one ships.',
  getCardImageUrl: "The card's image on the card processor's origin; url is empty when there is none.",
  getCardDetailsUrl: "The card processor's page that shows the virtual card's number, expiry and CVV (never in this API's JSON).",
  getPinChangeFormUrl: "The card processor's hosted PIN form for one card (card PIN or ATM PIN), with a single-use token.",
  commitPinChange: 'Record a PIN change the card processor confirmed for this card.',
} satisfies RouteSummaries<typeof cardsRoutes>;
