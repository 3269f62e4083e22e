/**
 * Report a physical card lost or stolen (spec §4 card life: "lost or stolen (blocked for all card and
 * ATM transactions until a replacement is activated)"; replacement in 10 to 15 business days; contract
 * POST /card/report-lost-stolen {id, status} → `{0, card, replacement}`).
 *
 * The cardholder says which it is (lost or stolen), reads what will happen and confirms; the card is
 * then blocked at once and a replacement sent free of charge (or, when a damaged card's replacement is
 * already on its way, that one takes its place). The chart ends when the cardholder goes back to the
 * cards: `finished` (output `reportSent: true`) once a report was sent, whatever came of it, so the
 * cards are loaded again and show the card as the card API has it; `cancelled` (`reportSent: false`)
 * before anything was sent.
 *
 * How each failure ends:
 * - A refusal (403 `{3, reason}` the card cannot be reported: already lost or stolen, reported as the
 *   other of the two, or stopped; 404 `{3}` not the caller's card) shows `refused`: not reported by
 *   this report, which says nothing of whether the card is blocked (it may have been reported
 *   already); no retry (it would be refused again), a way back to the cards, which show how it is.
 * - No answer (the error modal has said so; or the auth modal was given up) or any other answer (500
 *   `{5}`: the server may have committed before it failed) shows `unconfirmed`: the report may have
 *   been carried out and the answer lost, so the card may already be blocked. Try again sends the same
 *   report (same card, same status), which the card API answers as reported when it already was
 *   (server/features/cards/cardLife.ts reportCard); the other status cannot be chosen from there.
 */
import { assign, fromPromise } from 'xstate';
import { setup } from '../shared/setup.ts';
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
/** Whether a report was sent (carried out, refused or unconfirmed): then the cards are loaded again. */
export type LostStolenOutput = { reportSent: boolean };

/**
 * What views ask the chart: the step shown (`choosing`, `confirming`, `busy` while reporting,
 * `reported`), or how the report failed (`failed`, with `refused` or `unconfirmed`).
 */
export type LostStolenTag = 'choosing' | 'confirming' | 'busy' | 'reported' | 'failed' | 'refused' | 'unconfirmed';

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
    /** 403 or 404 `{3}`: the card API refused this report and did nothing. */
    isRefused: (_, answer: LostStolenAnswer | undefined) => answer?.statusCode === StatusCode.NOT_ALLOWED,
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
  // What the final state says (its own `output`), handed to the parent.
  output: ({ event }) => event.output as LostStolenOutput,
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
          { guard: { type: 'isRefused', params: ({ event }) => event.output }, target: 'refused' },
          { target: 'unconfirmed' },
        ],
        onError: { target: 'unconfirmed' },
      },
    },
    /** Refused: not reported by this report (the card may have been reported before); back to the cards. */
    refused: { tags: ['failed', 'refused'], on: { 'user.done': 'finished' } },
    /** No answer: the card may already be blocked. Try again sends the same report; or back to the cards. */
    unconfirmed: { tags: ['failed', 'unconfirmed'], on: { 'user.retry': 'reporting', 'user.done': 'finished' } },
    /** Blocked now; the replacement's delivery window; the virtual card keeps working online. */
    reported: { tags: ['reported'], on: { 'user.done': 'finished' } },
    /** Back to the cards after a report was sent: they load again. */
    finished: { type: 'final', output: { reportSent: true } satisfies LostStolenOutput },
    /** Back to the cards before anything was sent. */
    cancelled: { type: 'final', output: { reportSent: false } satisfies LostStolenOutput },
  },
});
