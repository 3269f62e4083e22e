/**
 * Lock and unlock a card (spec §4 "Card lock/unlock (freeze/unfreeze) replaces the card in state with
 * the returned card. A card not found in state raises an error."; §7 POST /card/freeze {id},
 * /card/unfreeze {id} return card; §8 texts and behaviour).
 *
 * The chart holds the cardholder's cards (from home data). Locking is temporary and reversible: a
 * working card that is not locked can be locked, a locked one unlocked; a lost, stolen, stopped or
 * pending card has no lock to toggle. One call at a time. When the server answers `{0, card}`, that card
 * replaces the one with its id in state (`replaceCardInState`), and the card says it is now locked or
 * unlocked (`locked` / `unlocked`: the switch's state alone is not announced by screen readers).
 *
 * How each failure ends:
 * - A refusal (403 `{3, reason}` the card's state does not allow it, 404 `{3}` not the caller's card)
 *   reads the cards again (GET /home, quiet: `lockRefused` / `unlockRefused`), as another tab or device
 *   may have changed the card (reported it stolen, say), and goes back to them as read, with the
 *   failure said on that card: 'We weren't able to lock your card.' or 'We weren't able to unlock your
 *   card.' (`lockFailed` / `unlockFailed`). When that read gets no answer the cards stay as they were.
 *   An answer naming a card that is not in state is a broken promise of the server: it is raised to
 *   the app's error reporting (`reportCardNotInState`) and said as the same failure.
 * - No answer (the calls are quiet: spec §8 suppresses the generic error modal for freeze and
 *   unfreeze, and the auth modal given up counts the same) or any other answer (500 `{5}`) says
 *   nothing of what happened: the server may have locked the card and the answer been lost. The chart
 *   reads the cards again (GET /home, quiet too: `checkingLock` / `checkingUnlock`) and says what the
 *   card API has: locked (or unlocked) as asked, the card replaced with the one read, said as a success;
 *   not, said as the failure above; no lock any more (reported elsewhere), the cards as read and the
 *   failure. When that read gets no answer either (or has no such card), the
 *   card says the change could not be confirmed (`lockUnconfirmed` / `unlockUnconfirmed`: 'lock it
 *   again to be sure'): the card in state is unchanged, and a second lock of a locked card (or unlock
 *   of an unlocked one) is answered with the card unchanged (server/features/cards/cardLife.ts setFrozen).
 */
import { assign, fromPromise } from 'xstate';
import { setup } from '../shared/setup.ts';
import type { Card, CardAnswer, CardRefusal, UnknownCard } from '../../contract/cards/types.ts';
import type { HomeAnswer } from '../../contract/home/types.ts';
import { StatusCode } from '../../contract/shared/statusCodes.ts';

export type CardLockInput = { cards: Card[] };
export type CardLockContext = {
  cards: Card[];
  /** The card being locked, unlocked or checked, or the one locked or unlocked last (or whose call failed); null before any. */
  cardId: string | null;
};
export type CardLockEvent = { type: 'user.lock'; cardId: string } | { type: 'user.unlock'; cardId: string };
export type CardLockAnswer = CardAnswer | CardRefusal | UnknownCard;

/**
 * What views ask the chart: a call is under way (`busy`: `locking` or `unlocking` card `cardId`, or
 * `checking` it after a call got no answer), or the last lock or unlock of `cardId` succeeded (`locked`,
 * `unlocked`), failed (`lockFailed`, `unlockFailed`) or could not be confirmed (`lockUnconfirmed`,
 * `unlockUnconfirmed`).
 */
export type CardLockTag =
  | 'busy'
  | 'locking'
  | 'unlocking'
  | 'checking'
  | 'locked'
  | 'unlocked'
  | 'lockFailed'
  | 'unlockFailed'
  | 'lockUnconfirmed'
  | 'unlockUnconfirmed';

/** The answer names a card the app does not hold (spec §4: raises). */
export class CardNotInStateError extends Error {
  constructor(readonly cardId: string) {
    super(`Card ${cardId} is not in state`);
  }
}

/** The cards with `card` in place of the one with its id; raises when there is none (spec §4). */
export function replaceCardInState(cards: readonly Card[], card: Card): Card[] {
  const index = cards.findIndex((held) => held.id === card.id);
  if (index < 0) throw new CardNotInStateError(card.id);
  return cards.map((held, at) => (at === index ? card : held));
}

/** A card whose lock can be toggled: a working card, not pending, lost, stolen or stopped by its replacement. */
export const hasLock = (card: Card) => card.status === 'ACTIVE' && card.isActive && !card.isPending;

const cardOf = (cards: readonly Card[], cardId: string) => cards.find((card) => card.id === cardId);
const answeredCard = (answer: CardLockAnswer | undefined) =>
  answer?.statusCode === StatusCode.SUCCESS && 'card' in answer ? answer.card : undefined;
/** Card `cardId` as home data has it (read again after a lock or unlock got no answer). */
const readCard = (home: HomeAnswer | undefined, cardId: string | null) => home?.accountOverview.cards.find((card) => card.id === cardId);

export const cardLockMachine = setup({
  types: {
    input: {} as CardLockInput,
    context: {} as CardLockContext,
    events: {} as CardLockEvent,
    tags: {} as CardLockTag,
  },
  guards: {
    canLock: ({ context }, cardId: string) => {
      const card = cardOf(context.cards, cardId);
      return card !== undefined && hasLock(card) && !card.frozen;
    },
    canUnlock: ({ context }, cardId: string) => {
      const card = cardOf(context.cards, cardId);
      return card !== undefined && hasLock(card) && card.frozen;
    },
    /** `{0, card}` for a card in state. */
    isCardInState: ({ context }, answer: CardLockAnswer | undefined) => {
      const card = answeredCard(answer);
      return card !== undefined && cardOf(context.cards, card.id) !== undefined;
    },
    /** `{0, card}` for a card the app does not hold. */
    isCardNotInState: (_, answer: CardLockAnswer | undefined) => answeredCard(answer) !== undefined,
    /** 403 or 404 `{3}`: the card API refused, and changed nothing. */
    isRefused: (_, answer: CardLockAnswer | undefined) => answer?.statusCode === StatusCode.NOT_ALLOWED,
    /** Read again, card `cardId` has no lock any more (reported lost or stolen, or stopped, elsewhere). */
    hasLostItsLock: ({ context }, home: HomeAnswer | undefined) => {
      const card = readCard(home, context.cardId);
      return card !== undefined && !hasLock(card);
    },
    /** Read again, card `cardId` is locked. */
    isLockedNow: ({ context }, home: HomeAnswer | undefined) => readCard(home, context.cardId)?.frozen === true,
    /** Read again, card `cardId` is not locked. */
    isUnlockedNow: ({ context }, home: HomeAnswer | undefined) => readCard(home, context.cardId)?.frozen === false,
  },
  actions: {
    chooseCard: assign((_, cardId: string) => ({ cardId })),
    replaceCard: assign(({ context }, answer: CardLockAnswer) => ({ cards: replaceCardInState(context.cards, answeredCard(answer)!) })),
    /** Every card as read again from home data (a refused change), when the read has card `cardId`. */
    replaceWithReadCards: assign(({ context }, home: HomeAnswer | undefined) => ({
      cards: readCard(home, context.cardId) ? home!.accountOverview.cards : context.cards,
    })),
    /** Card `cardId` as read again from home data, in place of the one in state. */
    replaceWithReadCard: assign(({ context }, home: HomeAnswer) => ({ cards: replaceCardInState(context.cards, readCard(home, context.cardId)!) })),
    /** Supplied by the app: the server answered a card not in state (spec §4 raises it: an error report). */
    reportCardNotInState: (_, _cardId: string) => {},
  },
  actors: {
    freezeCard: fromPromise<CardLockAnswer, { id: string }>(async () => {
      throw new Error('freezeCard not provided');
    }),
    unfreezeCard: fromPromise<CardLockAnswer, { id: string }>(async () => {
      throw new Error('unfreezeCard not provided');
    }),
    /** GET /home, quiet: the cards as the card API has them, after a lock or unlock got no answer. */
    getHome: fromPromise<HomeAnswer>(async () => {
      throw new Error('getHome not provided');
    }),
  },
}).createMachine({
  id: 'cardLock',
  context: ({ input }) => ({ cards: input.cards, cardId: null }),
  initial: 'ready',
  states: {
    ready: {
      initial: 'idle',
      on: {
        'user.lock': {
          guard: { type: 'canLock', params: ({ event }) => event.cardId },
          target: 'locking',
          actions: { type: 'chooseCard', params: ({ event }) => event.cardId },
        },
        'user.unlock': {
          guard: { type: 'canUnlock', params: ({ event }) => event.cardId },
          target: 'unlocking',
          actions: { type: 'chooseCard', params: ({ event }) => event.cardId },
        },
      },
      states: {
        idle: {},
        /** Card `cardId` was just locked: said once, so a screen reader hears what the switch did. */
        locked: { tags: ['locked'] },
        /** Card `cardId` was just unlocked. */
        unlocked: { tags: ['unlocked'] },
        /** 'We weren't able to lock your card.', on card `cardId`. */
        lockFailed: { tags: ['lockFailed'] },
        /** 'We weren't able to unlock your card.', on card `cardId`. */
        unlockFailed: { tags: ['unlockFailed'] },
        /** No answer, and the card could not be read again: card `cardId` may be locked or not. */
        lockUnconfirmed: { tags: ['lockUnconfirmed'] },
        /** No answer, and the card could not be read again: card `cardId` may be unlocked or not. */
        unlockUnconfirmed: { tags: ['unlockUnconfirmed'] },
      },
    },
    locking: {
      tags: ['busy', 'locking'],
      invoke: {
        id: 'freezeCard',
        src: 'freezeCard',
        input: ({ context }) => ({ id: context.cardId! }),
        onDone: [
          {
            guard: { type: 'isCardInState', params: ({ event }) => event.output },
            target: 'ready.locked',
            actions: { type: 'replaceCard', params: ({ event }) => event.output },
          },
          {
            guard: { type: 'isCardNotInState', params: ({ event }) => event.output },
            target: 'ready.lockFailed',
            actions: { type: 'reportCardNotInState', params: ({ event }) => answeredCard(event.output)!.id },
          },
          { guard: { type: 'isRefused', params: ({ event }) => event.output }, target: 'lockRefused' },
          { target: 'checkingLock' },
        ],
        onError: { target: 'checkingLock' },
      },
    },
    /** The lock was refused: the cards as the card API has them now, then the failure. */
    lockRefused: {
      tags: ['busy', 'checking'],
      invoke: {
        id: 'getHome',
        src: 'getHome',
        onDone: { target: 'ready.lockFailed', actions: { type: 'replaceWithReadCards', params: ({ event }) => event.output } },
        onError: { target: 'ready.lockFailed' },
      },
    },
    /** The unlock was refused: the cards as the card API has them now, then the failure. */
    unlockRefused: {
      tags: ['busy', 'checking'],
      invoke: {
        id: 'getHome',
        src: 'getHome',
        onDone: { target: 'ready.unlockFailed', actions: { type: 'replaceWithReadCards', params: ({ event }) => event.output } },
        onError: { target: 'ready.unlockFailed' },
      },
    },
    /** The lock got no answer (or an unexpected one): what is card `cardId` now? */
    checkingLock: {
      tags: ['busy', 'checking'],
      invoke: {
        id: 'getHome',
        src: 'getHome',
        onDone: [
          {
            guard: { type: 'hasLostItsLock', params: ({ event }) => event.output },
            target: 'ready.lockFailed',
            actions: { type: 'replaceWithReadCards', params: ({ event }) => event.output },
          },
          {
            guard: { type: 'isLockedNow', params: ({ event }) => event.output },
            target: 'ready.locked',
            actions: { type: 'replaceWithReadCard', params: ({ event }) => event.output },
          },
          {
            guard: { type: 'isUnlockedNow', params: ({ event }) => event.output },
            target: 'ready.lockFailed',
            actions: { type: 'replaceWithReadCard', params: ({ event }) => event.output },
          },
          { target: 'ready.lockUnconfirmed' },
        ],
        onError: { target: 'ready.lockUnconfirmed' },
      },
    },
    unlocking: {
      tags: ['busy', 'unlocking'],
      invoke: {
        id: 'unfreezeCard',
        src: 'unfreezeCard',
        input: ({ context }) => ({ id: context.cardId! }),
        onDone: [
          {
            guard: { type: 'isCardInState', params: ({ event }) => event.output },
            target: 'ready.unlocked',
            actions: { type: 'replaceCard', params: ({ event }) => event.output },
          },
          {
            guard: { type: 'isCardNotInState', params: ({ event }) => event.output },
            target: 'ready.unlockFailed',
            actions: { type: 'reportCardNotInState', params: ({ event }) => answeredCard(event.output)!.id },
          },
          { guard: { type: 'isRefused', params: ({ event }) => event.output }, target: 'unlockRefused' },
          { target: 'checkingUnlock' },
        ],
        onError: { target: 'checkingUnlock' },
      },
    },
    /** The unlock got no answer (or an unexpected one): what is card `cardId` now? */
    checkingUnlock: {
      tags: ['busy', 'checking'],
      invoke: {
        id: 'getHome',
        src: 'getHome',
        onDone: [
          {
            guard: { type: 'hasLostItsLock', params: ({ event }) => event.output },
            target: 'ready.unlockFailed',
            actions: { type: 'replaceWithReadCards', params: ({ event }) => event.output },
          },
          {
            guard: { type: 'isUnlockedNow', params: ({ event }) => event.output },
            target: 'ready.unlocked',
            actions: { type: 'replaceWithReadCard', params: ({ event }) => event.output },
          },
          {
            guard: { type: 'isLockedNow', params: ({ event }) => event.output },
            target: 'ready.unlockFailed',
            actions: { type: 'replaceWithReadCard', params: ({ event }) => event.output },
          },
          { target: 'ready.unlockUnconfirmed' },
        ],
        onError: { target: 'ready.unlockUnconfirmed' },
      },
    },
  },
});

/** What one card shows of the lock chart: its call under way, or how its last one ended. */
export type CardLockStatus =
  | 'locking'
  | 'unlocking'
  | 'checking'
  | 'locked'
  | 'unlocked'
  | 'lockFailed'
  | 'unlockFailed'
  | 'lockUnconfirmed'
  | 'unlockUnconfirmed'
  | null;

/** The lock status of card `cardId` in a snapshot (views ask this, not the chart's states). */
export function cardLockStatusOf(snapshot: { context: CardLockContext; hasTag: (tag: CardLockTag) => boolean }, cardId: string): CardLockStatus {
  if (snapshot.context.cardId !== cardId) return null;
  const shown = (['locking', 'unlocking', 'checking', 'locked', 'unlocked', 'lockFailed', 'unlockFailed', 'lockUnconfirmed', 'unlockUnconfirmed'] as const).find((tag) =>
    snapshot.hasTag(tag),
  );
  return shown ?? null;
}
