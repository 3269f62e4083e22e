/**
 * Replace a damaged physical card (spec §2 /replacement-card/:step?, which loads the user first and
 * passes its query; §4 card life: a replacement arrives in 10 to 15 business days and the old card
 * stops once the new one ships; §7 POST /card/replace; contract/cards/types.ts).
 *
 * The user first (GET /user: the address the card is mailed to), then home data (GET /home: the cards
 * and the balance the fee comes from). The card replaced is the one the query names (`cardId`), else
 * the physical card in use. A new card already on its way ends in `alreadyOrdered`; no physical card
 * in use (never ordered, or lost or stolen: those are replaced free when reported) in `nothingToReplace`.
 * Then the money confirmation (machines/shared/moneyConfirmation.ts) for fees.cardReplacement: step 1
 * review (the old card keeps working until the new one ships), step 2 confirm and order with an
 * Idempotency-Key, step 3 the receipt.
 *
 * How each failure ends: the user or home data that does not load → `loadFailed`, whose retry starts
 * from the user again; the balance does not cover the fee (before sending, or 403 `{3, insufficientFunds}`)
 * → `payment.review.notEnoughMoney`, nothing charged; the balance read again with no answer →
 * `payment.review.balanceUnchecked` (not known, so never said to be short; Try again reads it again);
 * a new card already on its way (403 `{3, cardPending}`: ordered from another tab or device since the
 * cards loaded), nothing charged → `cardPendingRefused`, which reads the cards again (GET /home) for that
 * card, then `alreadyOrdered` (with the refusal kept, so the view says no other card was ordered or charged for): its arrival
 * and the fee taken for it as read, or, when the read gets no answer or no longer has it, without them
 * (the pay button never comes back, the attempt over and its key forgotten); another refusal (the card
 * cannot be replaced) → `payment.confirm.refused`; no answer → `payment.confirm.failed`, where the retry
 * sends the same Idempotency-Key.
 */
import { assign, fromPromise } from 'xstate';
import { setup } from '../shared/setup.ts';
import type { UserAnswer, User } from '../../contract/account/types.ts';
import type { Card, CardRefusal, OrderCardAnswer, UnknownCard } from '../../contract/cards/types.ts';
import type { HomeAnswer } from '../../contract/home/types.ts';
import { fees } from '../../contract/shared/fees.ts';
import { refusedFor } from './refusals.ts';
import {
  moneyConfirmationAssigners,
  moneyConfirmationContext,
  moneyAnswerOf,
  moneyConfirmationGuards,
  moneyConfirmationStates,
  type MoneyAnswer,
  type MoneyConfirmationContext,
  type MoneyConfirmationEvent,
  type MoneyConfirmationTag,
} from '../shared/moneyConfirmation.ts';

export type ReplacementStep = 1 | 2 | 3;

/** The route's query (spec §2 passes it): which card to replace. */
export type ReplacementInput = { cardId?: string } | undefined;

export type ReplacementContext = MoneyConfirmationContext & {
  cardId: string | null;
  /** Where the new card is mailed. */
  user: User | null;
  /** The damaged card, working until its replacement ships. */
  card: Card | null;
  /** The new card: the one ordered here, or one already on its way. */
  replacement: Card | null;
};

export type ReplacementEvent = MoneyConfirmationEvent | { type: 'user.goToStep'; step: number } | { type: 'user.retry' };

/** What views ask the chart: the money confirmation's tags, `loading`, `loadFailed`, `alreadyOrdered`, `nothingToReplace`. */
export type ReplacementTag = MoneyConfirmationTag | 'loading' | 'loadFailed' | 'alreadyOrdered' | 'nothingToReplace';

export type ReplaceCardAnswerOrRefusal = OrderCardAnswer | CardRefusal | UnknownCard;

export const cardReplacementFeeCents = fees.cardReplacement.cents;

type Loaded = { home: HomeAnswer | undefined; cardId: string | null };

const physicalCards = (home: HomeAnswer | undefined) => (home?.accountOverview.cards ?? []).filter((card) => card.type === 'PHYSICAL');
const cardOnItsWay = (home: HomeAnswer | undefined): Card | null => home?.pendingCard ?? physicalCards(home).find((card) => card.isPending) ?? null;
/** The physical card in use the query names, else the first one. */
const cardToReplace = ({ home, cardId }: Loaded): Card | null =>
  physicalCards(home).find((card) => card.isActive && card.replacedByCardId === null && (cardId === null || card.id === cardId)) ?? null;

const userOf = ({ event }: { event: { output: UserAnswer } }) => event.output.user;
const replacementOf = ({ event }: { event: { output: ReplaceCardAnswerOrRefusal } }) => ('card' in event.output ? event.output.card : null);
const replaceAnswerOf = ({ event }: { event: { output: ReplaceCardAnswerOrRefusal } }) => event.output;

export const replacementMachine = setup({
  types: {
    input: {} as ReplacementInput,
    context: {} as ReplacementContext,
    events: {} as ReplacementEvent,
    tags: {} as ReplacementTag,
  },
  guards: {
    ...moneyConfirmationGuards,
    hasCardOnItsWay: (_, loaded: Loaded) => cardOnItsWay(loaded.home) !== null,
    hasCardToReplace: (_, loaded: Loaded) => cardToReplace(loaded) !== null,
    isBackToReview: ({ event }) => event.type === 'user.goToStep' && event.step === 1,
    /** 403 `{3, cardPending}`: a new card is already on its way (one at a time), so nothing was ordered or charged. */
    isCardPending: (_, answer: ReplaceCardAnswerOrRefusal | undefined) =>
      refusedFor(answer, 'cardPending'),
  },
  actions: {
    storeUser: assign((_, user: User) => ({ user })),
    storeCardOnItsWay: assign((_, loaded: Loaded) => ({ replacement: cardOnItsWay(loaded.home) })),
    storeCardToReplace: assign((_, loaded: Loaded) => ({
      card: cardToReplace(loaded),
      balanceCents: loaded.home?.accountOverview.balance ?? 0,
    })),
    storeReplacement: assign((_, replacement: Card | null) => ({ replacement })),
    keepIdempotencyKey: assign(({ context, event }) => moneyConfirmationAssigners.keepIdempotencyKey(context, event)),
    storeBalance: assign((_, home: HomeAnswer) => moneyConfirmationAssigners.storeBalance(home)),
    storeRefusal: assign((_, answer: MoneyAnswer) => moneyConfirmationAssigners.storeRefusal(answer)),
    storePayment: assign(({ context }, answer: MoneyAnswer) => moneyConfirmationAssigners.storePayment(context, answer)),
  },
  actors: {
    getUser: fromPromise<UserAnswer>(async () => {
      throw new Error('getUser not provided');
    }),
    getHome: fromPromise<HomeAnswer>(async () => {
      throw new Error('getHome not provided');
    }),
    replaceCard: fromPromise<ReplaceCardAnswerOrRefusal, { id: string; idempotencyKey: string }>(async () => {
      throw new Error('replaceCard not provided');
    }),
  },
}).createMachine({
  id: 'replacement',
  context: ({ input }) => ({
    ...moneyConfirmationContext(cardReplacementFeeCents),
    cardId: input?.cardId ?? null,
    user: null,
    card: null,
    replacement: null,
  }),
  initial: 'loadingUser',
  states: {
    /** The user first (spec §2): the address the new card goes to. */
    loadingUser: {
      tags: ['loading', 'busy'],
      invoke: {
        id: 'getUser',
        src: 'getUser',
        onDone: { target: 'loadingCards', actions: { type: 'storeUser', params: userOf } },
        onError: { target: 'loadFailed' },
      },
    },
    loadingCards: {
      tags: ['loading', 'busy'],
      invoke: {
        id: 'getHome',
        src: 'getHome',
        onDone: [
          {
            guard: { type: 'hasCardOnItsWay', params: ({ context, event }) => ({ home: event.output, cardId: context.cardId }) },
            target: 'alreadyOrdered',
            actions: { type: 'storeCardOnItsWay', params: ({ context, event }) => ({ home: event.output, cardId: context.cardId }) },
          },
          {
            guard: { type: 'hasCardToReplace', params: ({ context, event }) => ({ home: event.output, cardId: context.cardId }) },
            target: 'payment',
            actions: { type: 'storeCardToReplace', params: ({ context, event }) => ({ home: event.output, cardId: context.cardId }) },
          },
          { target: 'nothingToReplace' },
        ],
        onError: { target: 'loadFailed' },
      },
    },
    /** The user or home data did not load: the retry starts from the user again. */
    loadFailed: { tags: ['loadFailed'], on: { 'user.retry': { target: 'loadingUser' } } },
    /**
     * The replacement was refused, nothing charged: a new card is already on its way (ordered from another
     * tab or device). The cards read again, for its arrival and the fee taken for it; whatever the read
     * brings, that is what the screen says next. The confirmation's button stays busy meanwhile.
     */
    cardPendingRefused: {
      tags: ['confirm', 'busy'],
      invoke: {
        id: 'getHome',
        src: 'getHome',
        onDone: {
          target: 'alreadyOrdered',
          actions: { type: 'storeCardOnItsWay', params: ({ context, event }) => ({ home: event.output, cardId: context.cardId }) },
        },
        // No answer (the app's error modal has said so): the card on its way is said without its details.
        onError: { target: 'alreadyOrdered' },
      },
    },
    /** A new physical card is already on its way (one at a time): found on loading, or the server's refusal (`cardPendingRefused`). */
    alreadyOrdered: { tags: ['alreadyOrdered'] },
    /** No physical card in use: order one instead (a lost or stolen card's replacement is sent free when reported). */
    nothingToReplace: { tags: ['nothingToReplace'] },
    /** Steps 1 (review), 2 (confirm, then ordering) and 3 (the receipt). */
    payment: {
      initial: 'review',
      states: moneyConfirmationStates({
        src: 'replaceCard',
        input: ({ context }: { context: ReplacementContext }) => ({ id: context.card?.id ?? '', idempotencyKey: context.idempotencyKey ?? '' }),
        paid: [{ type: 'storeReplacement', params: replacementOf }],
        refusals: [
          {
            guard: { type: 'isCardPending', params: replaceAnswerOf },
            target: '#replacement.cardPendingRefused',
            actions: { type: 'storeRefusal', params: moneyAnswerOf },
          },
        ],
        confirmOn: { 'user.goToStep': { guard: 'isBackToReview', target: 'review' } },
      }),
    },
  },
});

/** The route's step (spec §2 /replacement-card/:step?); null while the URL must not follow (loading, nothing to replace). */
export function stepOfReplacement(snapshot: { hasTag: (tag: ReplacementTag) => boolean }): ReplacementStep | null {
  if (snapshot.hasTag('review')) return 1;
  if (snapshot.hasTag('confirm')) return 2;
  if (snapshot.hasTag('receipt')) return 3;
  return null;
}
