/**
 * Order a physical card (spec §2 /order-card/:step?, §4 card life, §7 POST /order-card, §9 $5 to send,
 * 10 to 15 business days; contract/cards/types.ts).
 *
 * Home data first (GET /home): the balance the fee comes from, the cards, and whether the account was
 * ever funded. A card already on its way ends in `alreadyOrdered` (its arrival window, and activation
 * once it has shipped); a physical card in use ends in `alreadyHaveCard` (replace it instead). Otherwise
 * the user (GET /user: the address the card is mailed to, shown before the fee is taken), then an
 * account never funded starts at step 1, what the card is and costs (its balance has to cover the
 * fee); a funded one at step 2 (the route sends it there too). Then the money confirmation
 * (machines/shared/moneyConfirmation.ts): step 2 review, step 3 confirm and order with an
 * Idempotency-Key, step 4 the receipt with the new balance and the arrival window.
 *
 * How each failure ends: home data or the user that does not load → `loadFailed`, whose retry starts
 * from home data again; the balance does
 * not cover the fee (seen before sending, or 403 `{3, insufficientFunds}`) → `payment.review.notEnoughMoney`,
 * nothing charged; the balance read again with no answer → `payment.review.balanceUnchecked` (not known,
 * so never said to be short; Try again reads it again); refused for the account's cards since home data
 * loaded, nothing charged: a card already on its way (403 `{3, cardPending}`: ordered from another tab
 * or device) or a physical card that works (403 `{3, notAllowed}`: one activated there) →
 * `cardRefused`, which reads home data again (GET /home) and goes where it says, the refusal kept so
 * the view says no other card was ordered or charged for: a card on its way → `alreadyOrdered` (its
 * arrival, the fee taken for it and its activation once shipped), a card in use → `alreadyHaveCard`;
 * when the read gets no answer or has neither, by the refusal, without the card's details (the order
 * button never comes back, the attempt over and its key forgotten); any other refusal →
 * `payment.confirm.refused`; no answer → `payment.confirm.failed`, where the retry sends the same
 * Idempotency-Key.
 */
import { assign, fromPromise } from 'xstate';
import { setup } from '../shared/setup.ts';
import type { UserAnswer } from '../../contract/account/types.ts';
import type { Card, CardRefusal, OrderCardAnswer } from '../../contract/cards/types.ts';
import type { Address } from '../../contract/shared/address.ts';
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

export type OrderCardStep = 1 | 2 | 3 | 4;

export type OrderCardContext = MoneyConfirmationContext & {
  /** Whether the account was ever funded: a funded one skips step 1 (spec §2). */
  hasFundedAnyKind: boolean;
  /** The card on its way: the one ordered here, or the one already ordered before. */
  card: Card | null;
  /** Where the card is mailed (the user's address), shown on the review. */
  address: Address | null;
};

export type OrderCardEvent = MoneyConfirmationEvent | { type: 'user.goToStep'; step: number } | { type: 'user.retry' };

/** What views ask the chart: the money confirmation's tags, `loading`, `loadFailed`, `intro`, `alreadyOrdered`, `alreadyHaveCard`. */
export type OrderCardTag = MoneyConfirmationTag | 'loading' | 'loadFailed' | 'intro' | 'alreadyOrdered' | 'alreadyHaveCard';

export type OrderCardAnswerOrRefusal = OrderCardAnswer | CardRefusal;

/** The fee to send a physical card (spec §9: $5), kept once in contract/shared/fees.ts. */
export const physicalCardFeeCents = fees.physicalCard.cents;

const physicalCards = (home: HomeAnswer | undefined) => (home?.accountOverview.cards ?? []).filter((card) => card.type === 'PHYSICAL');
const cardOnItsWay = (home: HomeAnswer | undefined): Card | null => home?.pendingCard ?? physicalCards(home).find((card) => card.isPending) ?? null;

const homeOf = ({ event }: { event: { output: HomeAnswer } }) => event.output;
const addressOf = ({ event }: { event: { output: UserAnswer } }) => event.output.user.address;
const orderedCardOf = ({ event }: { event: { output: OrderCardAnswerOrRefusal } }) => ('card' in event.output ? event.output.card : null);
const orderAnswerOf = ({ event }: { event: { output: OrderCardAnswerOrRefusal } }) => event.output;

export const orderCardMachine = setup({
  types: {
    context: {} as OrderCardContext,
    events: {} as OrderCardEvent,
    tags: {} as OrderCardTag,
  },
  guards: {
    ...moneyConfirmationGuards,
    /** A physical card is ordered and not yet activated (one at a time). */
    hasCardOnItsWay: (_, home: HomeAnswer | undefined) => cardOnItsWay(home) !== null,
    /** A physical card that works: another would be a replacement. */
    hasPhysicalCardInUse: (_, home: HomeAnswer | undefined) => physicalCards(home).some((card) => card.isActive),
    hasFunded: ({ context }) => context.hasFundedAnyKind,
    /** The route asks for step 1, which an account already funded skips (spec §2). */
    isBackToIntro: ({ context, event }) => event.type === 'user.goToStep' && event.step === 1 && !context.hasFundedAnyKind,
    isBackToReview: ({ event }) => event.type === 'user.goToStep' && event.step === 2,
    isPastIntro: ({ event }) => event.type === 'user.goToStep' && event.step >= 2,
    /**
     * Refused for the account's cards, so nothing was ordered or charged: 403 `{3, cardPending}` a card is
     * already on its way (one at a time), 403 `{3, notAllowed}` a physical card works (replace it instead).
     */
    isRefusedForCards: (_, answer: OrderCardAnswerOrRefusal | undefined) => refusedFor(answer, 'cardPending') || refusedFor(answer, 'notAllowed'),
    wasRefusedCardPending: ({ context }) => context.refusal === 'cardPending',
  },
  actions: {
    storeHome: assign((_, home: HomeAnswer) => ({ balanceCents: home.accountOverview.balance, hasFundedAnyKind: home.hasFundedAnyKind })),
    storeCardOnItsWay: assign((_, home: HomeAnswer) => ({ card: cardOnItsWay(home) })),
    storeAddress: assign((_, address: Address) => ({ address })),
    storeOrderedCard: assign((_, card: Card | null) => ({ card })),
    keepIdempotencyKey: assign(({ context, event }) => moneyConfirmationAssigners.keepIdempotencyKey(context, event)),
    storeBalance: assign((_, home: HomeAnswer) => moneyConfirmationAssigners.storeBalance(home)),
    storeRefusal: assign((_, answer: MoneyAnswer) => moneyConfirmationAssigners.storeRefusal(answer)),
    storePayment: assign(({ context }, answer: MoneyAnswer) => moneyConfirmationAssigners.storePayment(context, answer)),
  },
  actors: {
    getHome: fromPromise<HomeAnswer>(async () => {
      throw new Error('getHome not provided');
    }),
    getUser: fromPromise<UserAnswer>(async () => {
      throw new Error('getUser not provided');
    }),
    orderCard: fromPromise<OrderCardAnswerOrRefusal, { idempotencyKey: string }>(async () => {
      throw new Error('orderCard not provided');
    }),
  },
}).createMachine({
  id: 'orderCard',
  context: { ...moneyConfirmationContext(physicalCardFeeCents), hasFundedAnyKind: false, card: null, address: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading', 'busy'],
      invoke: {
        id: 'getHome',
        src: 'getHome',
        onDone: [
          {
            guard: { type: 'hasCardOnItsWay', params: homeOf },
            target: 'alreadyOrdered',
            actions: [{ type: 'storeHome', params: homeOf }, { type: 'storeCardOnItsWay', params: homeOf }],
          },
          { guard: { type: 'hasPhysicalCardInUse', params: homeOf }, target: 'alreadyHaveCard', actions: { type: 'storeHome', params: homeOf } },
          { target: 'loadingAddress', actions: { type: 'storeHome', params: homeOf } },
        ],
        onError: { target: 'loadFailed' },
      },
    },
    /** A card can be ordered: where it would be mailed, before any step shows. */
    loadingAddress: {
      tags: ['loading', 'busy'],
      invoke: {
        id: 'getUser',
        src: 'getUser',
        onDone: [
          { guard: 'hasFunded', target: 'payment', actions: { type: 'storeAddress', params: addressOf } },
          { target: 'intro', actions: { type: 'storeAddress', params: addressOf } },
        ],
        onError: { target: 'loadFailed' },
      },
    },
    /** Home data or the user did not load (the app's error modal said why, if there was no answer at all). */
    loadFailed: { tags: ['loadFailed'], on: { 'user.retry': { target: 'loading' } } },
    /**
     * The order was refused for the account's cards, nothing charged: a card ordered or activated from
     * another tab or device. Home data read again, for the card on its way (its arrival, the fee taken
     * for it and whether it has shipped) or the card in use; whatever the read brings, that is what the
     * screen says next. The confirmation's button stays busy meanwhile.
     */
    cardRefused: {
      tags: ['confirm', 'busy'],
      invoke: {
        id: 'getHome',
        src: 'getHome',
        onDone: [
          { guard: { type: 'hasCardOnItsWay', params: homeOf }, target: 'alreadyOrdered', actions: { type: 'storeCardOnItsWay', params: homeOf } },
          { guard: { type: 'hasPhysicalCardInUse', params: homeOf }, target: 'alreadyHaveCard' },
          { guard: 'wasRefusedCardPending', target: 'alreadyOrdered' },
          { target: 'alreadyHaveCard' },
        ],
        // No answer (the app's error modal has said so): what the refusal said, without the card's details.
        onError: [{ guard: 'wasRefusedCardPending', target: 'alreadyOrdered' }, { target: 'alreadyHaveCard' }],
      },
    },
    /**
     * A physical card is already on its way (found on loading, or the server's refusal: `cardRefused`):
     * when it should arrive, and activation once it has shipped.
     */
    alreadyOrdered: { tags: ['alreadyOrdered'] },
    /**
     * A physical card already works (found on loading, or the server's refusal: `cardRefused`): a damaged
     * one is replaced (/replacement-card), a lost one reported.
     */
    alreadyHaveCard: { tags: ['alreadyHaveCard'] },
    /** Step 1 (an account never funded): what a physical card is, what it costs, and that the balance pays for it. */
    intro: {
      tags: ['intro'],
      on: {
        'user.continue': { target: 'payment' },
        'user.goToStep': { guard: 'isPastIntro', target: 'payment' },
      },
    },
    /** Steps 2 (review), 3 (confirm, then ordering) and 4 (the receipt). */
    payment: {
      initial: 'review',
      states: moneyConfirmationStates({
        src: 'orderCard',
        input: ({ context }: { context: OrderCardContext }) => ({ idempotencyKey: context.idempotencyKey ?? '' }),
        paid: [{ type: 'storeOrderedCard', params: orderedCardOf }],
        refusals: [
          {
            guard: { type: 'isRefusedForCards', params: orderAnswerOf },
            target: '#orderCard.cardRefused',
            actions: { type: 'storeRefusal', params: moneyAnswerOf },
          },
        ],
        reviewOn: { 'user.goToStep': { guard: 'isBackToIntro', target: '#orderCard.intro' } },
        confirmOn: { 'user.goToStep': { guard: 'isBackToReview', target: 'review' } },
      }),
    },
  },
});

/** The route's step (spec §2 /order-card/:step?); null while the URL must not follow (loading, nothing to order). */
export function stepOfOrderCard(snapshot: { hasTag: (tag: OrderCardTag) => boolean }): OrderCardStep | null {
  if (snapshot.hasTag('intro')) return 1;
  if (snapshot.hasTag('review')) return 2;
  if (snapshot.hasTag('confirm')) return 3;
  if (snapshot.hasTag('receipt')) return 4;
  return null;
}

/** "Step N of M" as the cardholder sees it: an account already funded never sees step 1, so counts 3 steps. */
export function orderCardProgress(snapshot: { hasTag: (tag: OrderCardTag) => boolean; context: OrderCardContext }): { current: number; total: number } | null {
  const step = stepOfOrderCard(snapshot);
  if (step === null) return null;
  return snapshot.context.hasFundedAnyKind ? { current: step - 1, total: 3 } : { current: step, total: 4 };
}
