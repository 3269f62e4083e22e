/**
 * Set or reset a card's PIN, or its ATM PIN, through the card processor's hosted page (spec §2
 * /reset-pin/:step? with query returnTo; §4 "Reset PIN status: INPUTTING, SUCCESS, FAILURE. The PIN
 * iframe posts numeric codes: 0 success, -10 expired token, -11 token changed. Success signals PIN
 * success, anything else PIN error."; §7 GET /pin-change-form-url, POST /commit-pin-change).
 *
 * INPUTTING: the app asks the card API for the processor's form address (a single-use token inside),
 * shows that page in a frame on the processor's own origin, and listens for its result
 * (`awaitProcessorResult`, supplied by the app: only messages from exactly an allowlisted processor origin,
 * from that frame, reach the chart; the PIN never passes through the app). 0 is recorded with
 * POST /commit-pin-change; SUCCESS then returns the cardholder where they came from
 * (`returnToCaller`, supplied by the app: the returnTo route, with a notice).
 *
 * How each failure ends (each is spec §4's FAILURE):
 * - `failed`, 'Sorry, we weren't able to change your PIN...', with a retry that asks for a fresh form
 *   (the old token is spent or stale): when the form address cannot be had (`{0}` without a url, any
 *   answer but the card's refusals below, or no answer at all: the error modal has said so), and when
 *   the page posts -10 (expired token) or anything else but 0 and -11. The processor set no PIN.
 * - `formReplaced`, the same sentence and why: a newer PIN form for this card was opened (another tab or
 *   window; the processor answers -11, token changed, to the older one). That one is the live form; the
 *   retry asks for a fresh form here, which makes the other one stale in turn. The processor set no PIN.
 * - `noPinForCard`, the same sentence and why, with no retry (a fresh form would be refused the same)
 *   but the way to the cards: the card API refused the form address for this card, 404 `{3}` (the
 *   caller has no such card: a bad or stale cardId in the address), 400 `{2}` (a cardId that is no card
 *   id at all) or 403 `{3, reason}` (not an activated physical card in use: server/features/cards/
 *   cardLife.ts `cardForPin`).
 * - Once the page posted 0 the processor says it set the new PIN, whatever the recording call then
 *   gets: the screen never says the PIN was not changed. No answer to it (the error modal has said so; or
 *   re-authentication given up), or the server's own failure (`{5}`: it may have recorded the change
 *   before it failed) → `unconfirmed`: the new PIN may already be set, not confirmed; the retry sends
 *   the same recording call again (the card API answers a repeat of a confirmed change `{0}` again,
 *   within the processor's 15 minutes). Any other answer (`{3}` the processor has no such change, as
 *   when those 15 minutes have passed; `{2}`; an unknown card) → `unrecorded`: the new PIN may be set,
 *   not confirmed, and sending the call again would be refused the same, so the retry asks for a fresh
 *   form to set it once more.
 */
import { assign, fromPromise } from 'xstate';
import { setup } from '../shared/setup.ts';
import { PinChangeResult, type CardRefusal, type PinKind, type UnknownCard, type UrlAnswer } from '../../contract/cards/types.ts';
import type { StatusAnswer } from '../../contract/shared/answers.ts';
import { StatusCode } from '../../contract/shared/statusCodes.ts';

export type ResetPinInput = { cardId: string; pin: PinKind };
export type ResetPinContext = ResetPinInput & {
  /** The processor's form for this attempt; null until the card API gave one. */
  formUrl: string | null;
};
export type ResetPinEvent = { type: 'user.retry' };
/** What the processor's page posted: its number, or null for anything that is not a number. */
export type ProcessorResult = number | null;
export type PinFormAnswer = UrlAnswer | CardRefusal | UnknownCard;
export type CommitPinAnswer = StatusAnswer | CardRefusal | UnknownCard;

/** Spec §4's statuses. */
export type ResetPinStatus = 'INPUTTING' | 'SUCCESS' | 'FAILURE';
/**
 * What views ask the chart: a call under way (`busy`: the form on its way, or `saving` the PIN set), the
 * processor's page shown (`form`), and the outcome (`succeeded`, `failed`). `failed` with `unconfirmed`:
 * the processor set the PIN but its recording was not confirmed (the retry sends it again); with
 * `unrecorded` too: the card API refused to record it (the retry opens a fresh form); with `formReplaced`:
 * a newer form for the card was opened elsewhere (-11; the retry opens a fresh form here); with
 * `noPinForCard`: the card API refused the form for this card (no retry).
 */
export type ResetPinTag = 'busy' | 'form' | 'saving' | 'succeeded' | 'failed' | 'unconfirmed' | 'unrecorded' | 'formReplaced' | 'noPinForCard';

export const resetPinMachine = setup({
  types: {
    input: {} as ResetPinInput,
    context: {} as ResetPinContext,
    events: {} as ResetPinEvent,
    tags: {} as ResetPinTag,
  },
  guards: {
    hasForm: (_, answer: PinFormAnswer | undefined) =>
      answer?.statusCode === StatusCode.SUCCESS && 'url' in answer && answer.url.length > 0,
    /**
     * 404 `{3}` (no such card of the caller), 403 `{3, reason}`, or 400 `{2}` (the address's cardId is no
     * card id at all): no form for this card, however often asked.
     */
    isCardRefused: (_, answer: PinFormAnswer | undefined) =>
      answer?.statusCode === StatusCode.NOT_ALLOWED || answer?.statusCode === StatusCode.INVALID_PARAMETERS,
    /** The page posted 0: the processor set the PIN. */
    isPinSet: (_, code: ProcessorResult) => code === PinChangeResult.SUCCESS,
    /** The page posted -11: a newer form for the same card (and PIN) replaced this one. */
    isFormReplaced: (_, code: ProcessorResult) => code === PinChangeResult.TOKEN_CHANGED,
    isRecorded: (_, answer: CommitPinAnswer | undefined) => answer?.statusCode === StatusCode.SUCCESS,
    /** The server's own failure: it may have recorded the change before it failed. */
    isUnexpected: (_, answer: CommitPinAnswer | undefined) => answer?.statusCode === StatusCode.UNEXPECTED_ERROR,
  },
  actions: {
    storeForm: assign((_, answer: PinFormAnswer) => ({ formUrl: (answer as UrlAnswer).url })),
    forgetForm: assign({ formUrl: null }),
    /** Supplied by the app: back to the returnTo route, saying the PIN is set. */
    returnToCaller: () => {},
  },
  actors: {
    getPinChangeFormUrl: fromPromise<PinFormAnswer, ResetPinInput>(async () => {
      throw new Error('getPinChangeFormUrl not provided');
    }),
    /**
     * Supplied by the app: the first result the processor's frame posts (a promise, not a callback
     * actor, so the app's first load carries no more of XState than it did).
     */
    awaitProcessorResult: fromPromise<ProcessorResult>(async () => {
      throw new Error('awaitProcessorResult not provided');
    }),
    commitPinChange: fromPromise<CommitPinAnswer, ResetPinInput>(async () => {
      throw new Error('commitPinChange not provided');
    }),
  },
}).createMachine({
  id: 'resetPin',
  context: ({ input }) => ({ cardId: input.cardId, pin: input.pin, formUrl: null }),
  initial: 'loadingForm',
  states: {
    /** INPUTTING: a fresh form address (single-use token). */
    loadingForm: {
      tags: ['busy'],
      invoke: {
        id: 'getPinChangeFormUrl',
        src: 'getPinChangeFormUrl',
        input: ({ context }) => ({ cardId: context.cardId, pin: context.pin }),
        onDone: [
          {
            guard: { type: 'hasForm', params: ({ event }) => event.output },
            target: 'inputting',
            actions: { type: 'storeForm', params: ({ event }) => event.output },
          },
          { guard: { type: 'isCardRefused', params: ({ event }) => event.output }, target: 'noPinForCard' },
          { target: 'failed' },
        ],
        onError: { target: 'failed' },
      },
    },
    /** INPUTTING: the processor's page, in its frame; the cardholder types the PIN there. */
    inputting: {
      tags: ['form'],
      invoke: {
        id: 'awaitProcessorResult',
        src: 'awaitProcessorResult',
        onDone: [
          {
            guard: { type: 'isPinSet', params: ({ event }) => event.output },
            target: 'committing',
          },
          { guard: { type: 'isFormReplaced', params: ({ event }) => event.output }, target: 'formReplaced' },
          { target: 'failed' },
        ],
        // No onError: waiting for a message cannot fail; leaving the screen stops it.
      },
    },
    /** INPUTTING: the processor said 0; the card API records the change. */
    committing: {
      tags: ['busy', 'saving'],
      invoke: {
        id: 'commitPinChange',
        src: 'commitPinChange',
        input: ({ context }) => ({ cardId: context.cardId, pin: context.pin }),
        onDone: [
          { guard: { type: 'isRecorded', params: ({ event }) => event.output }, target: 'succeeded' },
          { guard: { type: 'isUnexpected', params: ({ event }) => event.output }, target: 'unconfirmed' },
          { target: 'unrecorded' },
        ],
        onError: { target: 'unconfirmed' },
      },
    },
    /** SUCCESS: back where the cardholder came from. */
    succeeded: { type: 'final', tags: ['succeeded'], entry: 'returnToCaller' },
    /** FAILURE: 'Sorry, we weren't able to change your PIN...'; a retry asks for a fresh form. */
    failed: {
      tags: ['failed'],
      entry: 'forgetForm',
      on: { 'user.retry': 'loadingForm' },
    },
    /** FAILURE: the page posted -11, a newer form for this card is open elsewhere; a retry asks for a fresh form here. */
    formReplaced: {
      tags: ['failed', 'formReplaced'],
      entry: 'forgetForm',
      on: { 'user.retry': 'loadingForm' },
    },
    /** FAILURE: the card API gives no form for this card (404 `{3}`, 400 `{2}`, 403 `{3, reason}`); no retry, the way to the cards. */
    noPinForCard: {
      tags: ['failed', 'noPinForCard'],
      entry: 'forgetForm',
    },
    /** FAILURE: the new PIN may already be set, its recording unanswered; a retry sends the same call again. */
    unconfirmed: {
      tags: ['failed', 'unconfirmed'],
      entry: 'forgetForm',
      on: { 'user.retry': 'committing' },
    },
    /** FAILURE: the new PIN may be set, the card API refused to record it; a retry asks for a fresh form. */
    unrecorded: {
      tags: ['failed', 'unconfirmed', 'unrecorded'],
      entry: 'forgetForm',
      on: { 'user.retry': 'loadingForm' },
    },
  },
});

/** Spec §4's reset PIN status of a snapshot. */
export const resetPinStatusOf = (snapshot: { hasTag: (tag: ResetPinTag) => boolean }): ResetPinStatus =>
  snapshot.hasTag('succeeded') ? 'SUCCESS' : snapshot.hasTag('failed') ? 'FAILURE' : 'INPUTTING';
