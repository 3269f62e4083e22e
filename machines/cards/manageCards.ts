/**
 * Manage cards (spec §2 /manage-cards: "looks up the virtual card's image URL (empty if none) and
 * passes it as route param cardImageURL"; §3 card; §7 GET /home, GET /card/image-url/{id}).
 *
 * Opening the screen loads the cards from home data, then the virtual card's image address on the card
 * processor's origin (`cardImageURL`, '' when there is none: the screen draws a plain card face). While
 * the cards are shown, the chart runs the lock chart over them (`cardLock`, machines/cards/cardLock.ts),
 * shows the virtual card's number, expiry and CVV on request through the processor's own page
 * (GET /card/details-url/{id}: the number never passes through the card API's JSON), and runs a lost or
 * stolen report for one card (`lostStolen`); once a report was sent (reported, refused, or its answer
 * lost) the cards load again on the way back, so the card (blocked or not) and its replacement show as
 * the card API now has them.
 *
 * How each failure ends: home data that cannot be loaded (any error: no answer opens the error modal,
 * or the auth modal was given up) is said on the screen with a retry (`failed`). An image address that
 * cannot be had (the call is quiet) leaves the plain card face. Card details that cannot be opened
 * (any answer but `{0, url}` with a url, or none) are said under the virtual card with a retry
 * (`detailsFailed`). Lock and lost-or-stolen failures end in their own charts.
 */
import { assign, fromPromise, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { setup } from '../shared/setup.ts';
import type { Card, UrlAnswer, CardRefusal, UnknownCard } from '../../contract/cards/types.ts';
import type { HomeAnswer } from '../../contract/home/types.ts';
import { StatusCode } from '../../contract/shared/statusCodes.ts';
import { cardLockMachine } from './cardLock.ts';
import { lostStolenMachine, type LostStolenOutput } from './lostStolen.ts';

export type ManageCardsContext = {
  cards: Card[];
  virtualCardId: string | null;
  /** Spec §2's cardImageURL: the virtual card's image on the processor's origin; '' when none; null until looked up. */
  cardImageURL: string | null;
  /** The processor's page with the virtual card's details, while it is shown. */
  cardDetailsURL: string | null;
  /** The card being reported lost or stolen, as the screen showed it. */
  reportCard: Card | null;
};
export type ManageCardsEvent =
  | { type: 'user.retry' }
  | { type: 'user.showDetails' }
  | { type: 'user.hideDetails' }
  /**
   * The card as the screen shows it: the lock chart's list, which a refused lock reads again (a card
   * stopped or activated on another device since the screen opened), not the list loaded then.
   */
  | { type: 'user.reportLostStolen'; card: Card };
export type CardUrlAnswer = UrlAnswer | CardRefusal | UnknownCard;

/**
 * What views ask the chart: loading (`busy`), could not load (`failed`), the cards shown (`cards`), the
 * virtual card's details on their way (`detailsLoading`), shown (`details`) or not (`detailsFailed`),
 * a lost or stolen report under way (`reporting`).
 */
export type ManageCardsTag = 'busy' | 'failed' | 'cards' | 'detailsLoading' | 'details' | 'detailsFailed' | 'reporting';

/**
 * A physical card that can be reported lost or stolen: one that works (locked or not), also while its
 * replacement for damage is on its way (it works until that one ships: a thief could use it till then).
 */
export const canReportLostStolen = (card: Card) => card.type === 'PHYSICAL' && card.status === 'ACTIVE' && card.isActive;

/** A card that can be replaced as damaged: one that can be reported, with no replacement ordered yet. */
export const canReplaceDamaged = (card: Card) => canReportLostStolen(card) && card.replacedByCardId === null;

const hasUrl = (answer: CardUrlAnswer | undefined) => answer?.statusCode === StatusCode.SUCCESS && 'url' in answer && answer.url.length > 0;

export const manageCardsMachine = setup({
  types: {
    context: {} as ManageCardsContext,
    events: {} as ManageCardsEvent,
    tags: {} as ManageCardsTag,
  },
  guards: {
    hasVirtualCard: (_, home: HomeAnswer) => home.virtualCard !== null,
    holdsVirtualCard: ({ context }) => context.virtualCardId !== null,
    hasDetails: (_, answer: CardUrlAnswer | undefined) => hasUrl(answer),
    /** A card that can be reported, and no report under way. */
    isReportable: ({ context }, card: Card) => context.reportCard === null && canReportLostStolen(card),
    wasReportSent: (_, output: LostStolenOutput | undefined) => output?.reportSent === true,
  },
  actions: {
    storeCards: assign((_, home: HomeAnswer) => ({
      cards: home.accountOverview.cards,
      virtualCardId: home.virtualCard?.id ?? null,
      cardImageURL: home.virtualCard ? null : '',
    })),
    storeImage: assign((_, answer: CardUrlAnswer | undefined) => ({ cardImageURL: hasUrl(answer) ? (answer as UrlAnswer).url : '' })),
    noImage: assign({ cardImageURL: '' }),
    storeDetails: assign((_, answer: CardUrlAnswer) => ({ cardDetailsURL: (answer as UrlAnswer).url })),
    forgetDetails: assign({ cardDetailsURL: null }),
    chooseReportCard: assign((_, card: Card) => ({ reportCard: card })),
    forgetReportCard: assign({ reportCard: null }),
  },
  actors: {
    getHome: fromPromise<HomeAnswer>(async () => {
      throw new Error('getHome not provided');
    }),
    getCardImageUrl: fromPromise<CardUrlAnswer, { id: string }>(async () => {
      throw new Error('getCardImageUrl not provided');
    }),
    getCardDetailsUrl: fromPromise<CardUrlAnswer, { id: string }>(async () => {
      throw new Error('getCardDetailsUrl not provided');
    }),
    cardLock: cardLockMachine,
    lostStolen: lostStolenMachine,
  },
}).createMachine({
  id: 'manageCards',
  context: { cards: [], virtualCardId: null, cardImageURL: null, cardDetailsURL: null, reportCard: null },
  initial: 'loadingCards',
  states: {
    loadingCards: {
      tags: ['busy'],
      invoke: {
        id: 'getHome',
        src: 'getHome',
        onDone: [
          {
            guard: { type: 'hasVirtualCard', params: ({ event }) => event.output },
            target: 'loadingImage',
            actions: { type: 'storeCards', params: ({ event }) => event.output },
          },
          { target: 'ready', actions: { type: 'storeCards', params: ({ event }) => event.output } },
        ],
        onError: { target: 'failed' },
      },
    },
    /** Spec §2: the virtual card's image address before the cards show ('' when none). */
    loadingImage: {
      tags: ['busy'],
      invoke: {
        id: 'getCardImageUrl',
        src: 'getCardImageUrl',
        input: ({ context }) => ({ id: context.virtualCardId! }),
        onDone: { target: 'ready', actions: { type: 'storeImage', params: ({ event }) => event.output } },
        onError: { target: 'ready', actions: 'noImage' },
      },
    },
    failed: { tags: ['failed'], on: { 'user.retry': 'loadingCards' } },
    /** The cards, with the lock chart running over them. */
    ready: {
      tags: ['cards'],
      invoke: { id: 'cardLock', src: 'cardLock', input: ({ context }) => ({ cards: context.cards }) },
      // Any card on the list can be reported, whatever else is shown; not while a report is under way.
      on: {
        'user.reportLostStolen': {
          guard: { type: 'isReportable', params: ({ event }) => event.card },
          target: '.reporting',
          actions: { type: 'chooseReportCard', params: ({ event }) => event.card },
        },
      },
      initial: 'browsing',
      states: {
        browsing: {
          on: { 'user.showDetails': { guard: 'holdsVirtualCard', target: 'loadingDetails' } },
        },
        loadingDetails: {
          tags: ['detailsLoading'],
          invoke: {
            id: 'getCardDetailsUrl',
            src: 'getCardDetailsUrl',
            input: ({ context }) => ({ id: context.virtualCardId! }),
            onDone: [
              {
                guard: { type: 'hasDetails', params: ({ event }) => event.output },
                target: 'showingDetails',
                actions: { type: 'storeDetails', params: ({ event }) => event.output },
              },
              { target: 'detailsFailed' },
            ],
            onError: { target: 'detailsFailed' },
          },
        },
        /** The processor's page with the number, expiry and CVV, in a frame on its own origin. */
        showingDetails: {
          tags: ['details'],
          on: { 'user.hideDetails': { target: 'browsing', actions: 'forgetDetails' } },
        },
        detailsFailed: {
          tags: ['detailsFailed'],
          on: { 'user.showDetails': 'loadingDetails' },
        },
        /** A lost or stolen report for `reportCard`; once one was sent (whatever came of it), the cards load again. */
        reporting: {
          tags: ['reporting'],
          invoke: {
            id: 'lostStolen',
            src: 'lostStolen',
            input: ({ context }) => ({ card: context.reportCard! }),
            onDone: [
              {
                guard: { type: 'wasReportSent', params: ({ event }) => event.output },
                target: '#manageCards.loadingCards',
                actions: 'forgetReportCard',
              },
              { target: 'browsing', actions: 'forgetReportCard' },
            ],
          },
        },
      },
    },
  },
});

export type ManageCardsSnapshot = SnapshotFrom<typeof manageCardsMachine>;
export type CardLockActor = ActorRefFrom<typeof cardLockMachine>;
export type LostStolenActor = ActorRefFrom<typeof lostStolenMachine>;

/** The lock chart running over the cards shown (while `cards`). */
export const cardLockOf = (snapshot: ManageCardsSnapshot): CardLockActor | undefined => snapshot.children.cardLock as CardLockActor | undefined;
/** The lost or stolen report under way (while `reporting`). */
export const lostStolenOf = (snapshot: ManageCardsSnapshot): LostStolenActor | undefined =>
  snapshot.children.lostStolen as LostStolenActor | undefined;
