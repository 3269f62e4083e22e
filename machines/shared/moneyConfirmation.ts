/**
 * Money confirmation (docs/architecture.md §3, §5): the sub-flow every money-moving call goes through,
 * review → confirm → submitting → receipt. Ordering a physical card and replacing a damaged one use it
 * (their fee is taken from the balance); the view is src/shared/moneyConfirmation/MoneyConfirmationStep.tsx.
 *
 * - review: what is bought, the amount, the balance now and after. Continue goes to confirm when the
 *   balance covers the amount (`coversAmount`); otherwise `checkingBalance` reads it again (GET /home:
 *   money may have come since it was loaded, as the refusal asks the cardholder to add it), then goes to
 *   confirm or to `review.notEnoughMoney`, which says so; nothing is sent. When that reading fails (no
 *   answer, an answer without a SUCCESS statusCode, or re-authentication given up) the balance is not
 *   known: `review.balanceUnchecked` says it could not be checked (never that it is short), and its Try
 *   again (`user.continue` again, as confirm's Try again is `user.confirm` again) reads it again.
 * - confirm: the cardholder confirms (`user.confirm`) or goes back (`user.back`).
 * - submitting: the chart's call with an Idempotency-Key. The key is made once per attempt: the first
 *   `user.confirm` brings one (the app makes it), and it is kept, so a retry after no answer sends the
 *   same key and the server answers the first result instead of charging again. A definite answer
 *   (paid, refused) ends the attempt and forgets the key; the next confirmation brings a new one.
 *
 * How each failure ends: the balance does not cover the amount, read again before sending or as the server's
 * refusal 403 `{3, reason: 'insufficientFunds'}` → `review.notEnoughMoney` (nothing was charged); the
 * balance's reading again that fails → `review.balanceUnchecked` (nothing was sent);
 * the server's own failure (500 `{5}`: it may have committed before it failed, as when the database's
 * commit went through and its connection then dropped) → `confirm.unexpected`, the key kept for the
 * retry; a refusal the chart handles itself (its `refusals`: order and replace take `cardPending`, a card
 * already on its way, to the screen that says so) → where the chart says, its reason kept and the key
 * forgotten as for any refusal; any other answer with a statusCode → `confirm.refused` with its reason
 * kept for the view; no answer (no statusCode: the app's error modal has said so; or re-authentication
 * given up) → `confirm.failed`, the key kept for the retry.
 *
 * What every chart shares is here: guards (spread into the chart's `setup`), what its actions assign
 * (each chart wraps them in `assign`), and the states (`moneyConfirmationStates`, under a parent state
 * of the chart). Each chart keeps what differs: the call, what it is sent, and what else a payment
 * stores (the card it bought); each has a `getHome` actor (its home data), which reads the balance again.
 */
import type { EventObject } from 'xstate';
import type { HomeAnswer } from '../../contract/home/types.ts';
import { StatusCode } from '../../contract/shared/statusCodes.ts';

/** What the fragment keeps in a chart's context. Money is integer cents. */
export type MoneyConfirmationContext = {
  /** What will be taken from the balance. */
  amountCents: number;
  /** The available balance when the flow loaded it; once paid, the balance after, as the server answered it. */
  balanceCents: number;
  /** The current attempt's Idempotency-Key; null between attempts. */
  idempotencyKey: string | null;
  /** The reason of the last refusal (403 `{3, reason}`), for the view to say; null when none. */
  refusal: string | null;
  /** What the server says it took, once paid. */
  paidCents: number | null;
};

/** The initial fragment context of a flow that takes `amountCents` from `balanceCents`. */
export const moneyConfirmationContext = (amountCents: number, balanceCents = 0): MoneyConfirmationContext => ({
  amountCents,
  balanceCents,
  idempotencyKey: null,
  refusal: null,
  paidCents: null,
});

/** The part of a money call's answer the fragment reads: its statusCode, a refusal's reason, the fee taken, the balance after. */
export type MoneyAnswer = { statusCode: number; reason?: string; feeCents?: number; balanceCents?: number } | undefined;

/** The confirmation: the app makes a fresh key each time; the chart keeps the first one of the attempt. */
export type MoneyConfirmed = { type: 'user.confirm'; idempotencyKey: string };
export type MoneyConfirmationEvent = { type: 'user.continue' } | MoneyConfirmed | { type: 'user.back' };

const isConfirmed = (event: EventObject): event is MoneyConfirmed =>
  event.type === 'user.confirm' && typeof (event as Partial<MoneyConfirmed>).idempotencyKey === 'string';

export const moneyConfirmationGuards = {
  coversAmount: ({ context }: { context: MoneyConfirmationContext }) => context.balanceCents >= context.amountCents,
  homeCoversAmount: ({ context }: { context: MoneyConfirmationContext }, home: HomeAnswer) => home.accountOverview.balance >= context.amountCents,
  isPaid: (_: unknown, answer: MoneyAnswer) => answer?.statusCode === StatusCode.SUCCESS,
  isInsufficientFunds: (_: unknown, answer: MoneyAnswer) => answer?.statusCode === StatusCode.NOT_ALLOWED && answer.reason === 'insufficientFunds',
  isUnexpected: (_: unknown, answer: MoneyAnswer) => answer?.statusCode === StatusCode.UNEXPECTED_ERROR,
};

/**
 * What the fragment's actions assign; each chart wraps them in `assign`:
 * `keepIdempotencyKey: assign(({ context, event }) => moneyConfirmationAssigners.keepIdempotencyKey(context, event))`.
 */
export const moneyConfirmationAssigners = {
  /** The attempt's key: the one already kept (a retry), else the one the confirmation brought. */
  keepIdempotencyKey: (context: MoneyConfirmationContext, event: EventObject) => ({
    idempotencyKey: context.idempotencyKey ?? (isConfirmed(event) ? event.idempotencyKey : null),
    refusal: null,
  }),
  /** The balance read again: it is what the review shows now, in place of an earlier refusal's. */
  storeBalance: (home: HomeAnswer) => ({ balanceCents: home.accountOverview.balance, refusal: null }),
  /**
   * A definite refusal: nothing was charged, and this attempt is over. Short of money, the server says
   * the balance now: the review shows it, not the older one that seemed to cover the amount.
   */
  storeRefusal: (answer: MoneyAnswer) => ({
    refusal: answer?.reason ?? null,
    idempotencyKey: null,
    ...(answer?.balanceCents === undefined ? {} : { balanceCents: answer.balanceCents }),
  }),
  /**
   * Paid: what the server took (the fee it answers) and the balance it left, and the attempt is over.
   * The balance is the server's: money may have come or gone since the flow loaded it.
   */
  storePayment: (context: MoneyConfirmationContext, answer: MoneyAnswer) => {
    const paidCents = answer?.feeCents ?? context.amountCents;
    return { paidCents, balanceCents: answer?.balanceCents ?? context.balanceCents - paidCents, idempotencyKey: null, refusal: null };
  },
};

/** A money call's answer, as the guards and actions of its `onDone` take it. */
export const moneyAnswerOf = ({ event }: { event: { output: MoneyAnswer } }) => event.output;
const homeOf = ({ event }: { event: { output: HomeAnswer } }) => event.output;

/**
 * Tags: `review`, `confirm` (also while submitting) and `receipt` say which part shows; `busy` while
 * the call is under way; `insufficientFunds`, `balanceUnchecked`, `refused`, `failed` and `unexpected`
 * say why the flow is back (`balanceUnchecked` when the balance could not be read again; `failed`
 * whenever the outcome of a charge is unknown; `unexpected` too when the server said it failed).
 */
export type MoneyConfirmationTag =
  | 'review'
  | 'confirm'
  | 'receipt'
  | 'busy'
  | 'insufficientFunds'
  | 'balanceUnchecked'
  | 'refused'
  | 'failed'
  | 'unexpected';

/** What the money confirmation shows, from the chart's tags (MoneyConfirmationStep's props). */
export function moneyConfirmationShows(snapshot: { hasTag: (tag: MoneyConfirmationTag) => boolean }) {
  return {
    review: snapshot.hasTag('review'),
    confirm: snapshot.hasTag('confirm'),
    receipt: snapshot.hasTag('receipt'),
    busy: snapshot.hasTag('busy'),
    notEnoughMoney: snapshot.hasTag('insufficientFunds'),
    balanceUnchecked: snapshot.hasTag('balanceUnchecked'),
    refused: snapshot.hasTag('refused'),
    failed: snapshot.hasTag('failed'),
    unexpected: snapshot.hasTag('unexpected'),
  };
}

/** The id of `checkingBalance` (the target of review's Try again, a state of the chart above review's own): one fragment per chart. */
const checkingBalanceId = 'moneyConfirmationCheckingBalance';

/**
 * The states, to sit under one parent state of the chart (`initial: 'review'`). `src` is the chart's
 * money call (also the invoke's id); `input` what it is sent (the chart reads `context.idempotencyKey`);
 * `paid` what else a payment does (the chart's own actions, with the answer as params); `refusals` the
 * chart's own refusals (transitions of the call's answer, guarded on it, tried before `confirm.refused`;
 * each stores the refusal with `storeRefusal`, so the attempt is over); `reviewOn` and `confirmOn`
 * review's and confirm's other transitions (the route's step going back), never while a call is under way.
 */
export function moneyConfirmationStates<
  const TSrc extends string,
  const TInput,
  const TPaid extends readonly unknown[],
  const TRefusals extends readonly unknown[] = readonly [],
  const TReviewOn extends object = object,
  const TConfirmOn extends object = object,
>(chart: { src: TSrc; input: TInput; paid: TPaid; refusals?: TRefusals; reviewOn?: TReviewOn; confirmOn?: TConfirmOn }) {
  return {
    review: {
      tags: ['review'],
      initial: 'idle',
      on: {
        ...(chart.reviewOn ?? ({} as TReviewOn)),
        'user.continue': [{ guard: 'coversAmount', target: 'confirm' }, { target: 'checkingBalance' }],
      },
      states: {
        idle: {},
        /** The balance does not cover the amount (read again before sending, or the server's refusal): nothing was charged. */
        notEnoughMoney: { tags: ['insufficientFunds'] },
        /**
         * The balance could not be read again: whether it covers the amount is not known, so the flow
         * never says it is short. Try again (`user.continue`) reads it again, whatever the balance shown.
         */
        balanceUnchecked: { tags: ['balanceUnchecked'], on: { 'user.continue': { target: `#${checkingBalanceId}` } } },
      },
    },
    /** The balance shown does not cover the amount: read again (the chart's `getHome`), as it may have grown since. */
    checkingBalance: {
      id: checkingBalanceId,
      tags: ['review', 'busy'],
      invoke: {
        id: 'getHome',
        src: 'getHome',
        onDone: [
          { guard: { type: 'homeCoversAmount', params: homeOf }, target: 'confirm', actions: { type: 'storeBalance', params: homeOf } },
          { target: 'review.notEnoughMoney', actions: { type: 'storeBalance', params: homeOf } },
        ],
        // No answer (the app's error modal has said so), another failure, or re-authentication given up:
        // the balance is not known, so the flow cannot say it is short.
        onError: { target: 'review.balanceUnchecked' },
      },
    },
    confirm: {
      tags: ['confirm'],
      initial: 'idle',
      on: {
        ...(chart.confirmOn ?? ({} as TConfirmOn)),
        'user.confirm': { target: 'submitting', actions: 'keepIdempotencyKey' },
        'user.back': { target: 'review' },
      },
      states: {
        idle: {},
        /** No answer: the outcome is unknown, so the key is kept and a retry cannot charge twice. */
        failed: { tags: ['failed'] },
        /** The server's own failure: it may have charged before it failed, so the key is kept as after no answer. */
        unexpected: { tags: ['failed', 'unexpected'] },
        /** Another refusal (a card that cannot be replaced …) the chart does not take elsewhere: nothing was charged. */
        refused: { tags: ['refused'] },
      },
    },
    submitting: {
      tags: ['confirm', 'busy'],
      invoke: {
        id: chart.src,
        src: chart.src,
        input: chart.input,
        onDone: [
          {
            guard: { type: 'isPaid', params: moneyAnswerOf },
            target: 'receipt',
            actions: [{ type: 'storePayment', params: moneyAnswerOf }, ...chart.paid],
          },
          {
            guard: { type: 'isInsufficientFunds', params: moneyAnswerOf },
            target: 'review.notEnoughMoney',
            actions: { type: 'storeRefusal', params: moneyAnswerOf },
          },
          { guard: { type: 'isUnexpected', params: moneyAnswerOf }, target: 'confirm.unexpected' },
          ...(chart.refusals ?? ([] as unknown as TRefusals)),
          { target: 'confirm.refused', actions: { type: 'storeRefusal', params: moneyAnswerOf } },
        ],
        onError: { target: 'confirm.failed' },
      },
    },
    /** Paid: the receipt (the flow says what happens next). */
    receipt: { tags: ['receipt'] },
  } as const;
}
