/**
 * Report a physical card lost or stolen (spec §4 card life: "lost or stolen (blocked for all card and
 * ATM transactions until a replacement is activated)"; replacement in 10 to 15 business days; contract
 * POST /card/report-lost-stolen {id, status} → `{0, card, replacement}`).
 *
 * The cardholder says which it is (lost or stolen), reads what will happen and confirms; the card is
 * then blocked at once and a replacement sent free of charge (or, when a damaged card's replacement is
 * already on its way, that one takes its place). The chart ends (`finished`, output
 * `reported: true`) when the cardholder leaves the screen that says so, so the cards are loaded again;
 * leaving before (`cancelled`) reports nothing.
 *
 * How each failure ends: any answer but `{0}` (403 `{3, reason}` the card cannot be reported: already
 * lost or stolen, or stopped; 404 not the caller's card; 5 …) and no answer at all (the error modal has
 * said so; or the auth modal was given up) show `failed`: the card has not been reported, with a retry
 * of the same report, or a way back to the cards.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { Card, CardRefusal, ReportCardAnswer, ReportCardRequest, UnknownCard } from '../../contract/cards/types.ts';
import { StatusCode } from '../../contract/shared/statusCodes.ts';

export type LostOrStolen = ReportCardRequest['status'];
export type LostStolenInput = { card: Card };
export type LostStolenContext = {
  card: Card;
  /** What the cardholder chose; null until then. */
  status: LostOrStolen | null;
  /** Once reported: the blocked card and its replacement on its way. */
  replacement: Card | null;
  /**
   * A replacement was ordered before (a damaged card's, not shipped yet, while this card still works):
   * it takes this card's place, and no other is sent (server/features/cards/cardLife.ts reportCard).
   */
  replacementOrdered: boolean;
};
export type LostStolenEvent =
  | { type: 'user.choose'; status: LostOrStolen }
  | { type: 'user.confirm' }
  | { type: 'user.back' }
  | { type: 'user.retry' }
  | { type: 'user.cancel' }
  | { type: 'user.done' };
export type LostStolenAnswer = ReportCardAnswer | CardRefusal | UnknownCard;
export type LostStolenOutput = { reported: boolean };

/**
 * What views ask the chart: the step shown (`choosing`, `confirming`, `busy` while reporting,
 * `reported`, `failed`).
 */
export type LostStolenTag = 'choosing' | 'confirming' | 'busy' | 'reported' | 'failed';

export const lostStolenMachine = setup({
  types: {
    input: {} as LostStolenInput,
    context: {} as LostStolenContext,
    events: {} as LostStolenEvent,
    tags: {} as LostStolenTag,
    output: {} as LostStolenOutput,
  },
  guards: {
    isReported: (_, answer: LostStolenAnswer | undefined) => answer?.statusCode === StatusCode.SUCCESS && 'replacement' in answer,
  },
  actions: {
    choose: assign((_, status: LostOrStolen) => ({ status })),
    storeReport: assign((_, answer: LostStolenAnswer) => {
      const reported = answer as ReportCardAnswer;
      return { card: reported.card, replacement: reported.replacement };
    }),
  },
  actors: {
    reportCard: fromPromise<LostStolenAnswer, ReportCardRequest>(async () => {
      throw new Error('reportCard not provided');
    }),
  },
}).createMachine({
  id: 'lostStolen',
  context: ({ input }) => ({ card: input.card, status: null, replacement: null, replacementOrdered: input.card.replacedByCardId !== null }),
  initial: 'choosing',
  output: ({ context }) => ({ reported: context.replacement !== null }),
  states: {
    /** Lost, or stolen? */
    choosing: {
      tags: ['choosing'],
      on: {
        'user.choose': { target: 'confirming', actions: { type: 'choose', params: ({ event }) => event.status } },
        'user.cancel': 'cancelled',
      },
    },
    /** What happens next, before anything is done: the card blocked at once, a free replacement. */
    confirming: {
      tags: ['confirming'],
      on: { 'user.confirm': 'reporting', 'user.back': 'choosing', 'user.cancel': 'cancelled' },
    },
    reporting: {
      tags: ['busy'],
      invoke: {
        id: 'reportCard',
        src: 'reportCard',
        input: ({ context }) => ({ id: context.card.id, status: context.status! }),
        onDone: [
          {
            guard: { type: 'isReported', params: ({ event }) => event.output },
            target: 'reported',
            actions: { type: 'storeReport', params: ({ event }) => event.output },
          },
          { target: 'failed' },
        ],
        onError: { target: 'failed' },
      },
    },
    /** Not reported: try again, or back to the cards. */
    failed: { tags: ['failed'], on: { 'user.retry': 'reporting', 'user.cancel': 'cancelled' } },
    /** Blocked now; the replacement's delivery window; the virtual card keeps working online. */
    reported: { tags: ['reported'], on: { 'user.done': 'finished' } },
    finished: { type: 'final' },
    cancelled: { type: 'final' },
  },
});
