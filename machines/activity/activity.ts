/**
 * Activity (spec §2 /transactions, §3 loading status): the cardholder's transactions, a page at a time
 * (GET /transactions, newest first). The loading status is the spec's: LOADING while a page is asked
 * for, COMPLETE when more can be asked for, NO_MORE once the last page arrived.
 *
 * Opening the list loads the first page. Asking for more appends the next page (keyset cursor from the
 * server), so a transaction arriving meanwhile never shifts or repeats a row. Refreshing starts again
 * from the newest and also refreshes the home data (spec §2: the list refreshes home data), while the
 * rows already shown stay until the new first page replaces them. A failed page keeps what is shown
 * and says so, with a retry of the same page. The chart lives as long as the /transactions screens,
 * so coming back from a transaction's detail finds the same rows (and the scroll position, spec §2).
 * With no answer for the first page and a last-known copy kept on this phone (standalone only), that
 * copy is shown with the time it was fetched ("as of"); asking for more waits for the network. A
 * transaction's detail hands back what the server now says of it, and its row shows that, or goes
 * when it is gone (fresh rows only: the last-known copy stays as it was then); when that changes the
 * row's status or amount, home data is refreshed too, so the balance above the list follows.
 */
import { assign, fromPromise } from 'xstate';
import { setup } from '../shared/setup.ts';
import type { FeeTotals, Transaction, TransactionsPage } from '../../contract/activity/types.ts';
import { type LastKnown, slowAnswerMs } from '../shared/lastKnown.ts';

export type ActivityInput = { lastKnown?: LastKnown<TransactionsPage> | null } | undefined;

export type ActivityContext = {
  transactions: Transaction[];
  /** Where the next page starts; null before the first page and after the last. */
  nextCursor: string | null;
  /** When the rows are the last-known copy: when it was fetched; null when they are fresh. */
  asOf: string | null;
  /** The fee totals the newest page came with (Regulation E's, for the history), as the rows: fresh or the copy's. */
  fees: FeeTotals | null;
  lastKnown: LastKnown<TransactionsPage> | null;
};

export type ActivityEvent =
  | { type: 'user.loadMore' }
  | { type: 'user.refresh' }
  | { type: 'user.retry' }
  /** Transaction `id` as its detail just read it from the server, null when it is gone (machines/activity/transactionDetail.ts). */
  | { type: 'transaction.seen'; id: string; transaction: Transaction | null };

/** Spec §3's loading status values. */
export type LoadingStatus = 'LOADING' | 'NO_MORE' | 'COMPLETE';

/**
 * What views ask the chart: a page is on its way (`busy`), the last one failed (`failed`), all are here
 * (`noMore`). The rows are the last-known copy while `asOf` is set (also while the newest page is asked for again).
 */
export type ActivityTag = 'busy' | 'failed' | 'noMore' | 'firstPage';

export const activityMachine = setup({
  types: {
    input: {} as ActivityInput,
    context: {} as ActivityContext,
    events: {} as ActivityEvent,
    tags: {} as ActivityTag,
  },
  actions: {
    replaceRows: assign((_, page: TransactionsPage) => ({ transactions: page.transactions, nextCursor: page.nextCursor, asOf: null, fees: page.fees ?? null })),
    showLastKnown: assign(({ context }) => ({
      transactions: context.lastKnown!.data.transactions,
      nextCursor: null,
      asOf: context.lastKnown!.fetchedAt,
      fees: context.lastKnown!.data.fees ?? null,
    })),
    /** Keeps the fresh newest page as the last-known copy (supplied by the app; standalone only). */
    keepLastKnown: (_, _page: TransactionsPage) => {},
    /** The next page after the rows shown; a row already shown is not shown twice. */
    appendRows: assign(({ context }, page: TransactionsPage) => {
      const shown = new Set(context.transactions.map((row) => row.id));
      return { transactions: [...context.transactions, ...page.transactions.filter((row) => !shown.has(row.id))], nextCursor: page.nextCursor };
    }),
    /**
     * A row shown takes its transaction's newer copy (a hold settled since the page came), or goes when
     * the transaction is gone (a hold released: the list leaves those out); other rows stay.
     */
    replaceRow: assign(({ context }, { id, transaction }: { id: string; transaction: Transaction | null }) => ({
      transactions: context.transactions.flatMap((row) => (row.id !== id ? [row] : transaction ? [transaction] : [])),
    })),
    /** Home data follows the list (supplied by the app: the home chart or the home call). */
    refreshHome: () => {},
  },
  delays: {
    /** How long the answer may take before the last-known copy shows meanwhile. */
    slowAnswer: slowAnswerMs,
  },
  guards: {
    isLastPage: (_, page: TransactionsPage) => page.nextCursor === null,
    /** Rows of this visit on screen (the last-known copy stays as it was then). */
    showsFreshRows: ({ context }) => context.asOf === null && context.transactions.length > 0,
    /**
     * A row of this visit that the server now tells otherwise: settled at another amount, released or
     * gone. The balance and the amount on hold above the list changed with it, so home is asked again.
     */
    changesFreshRow: ({ context }, { id, transaction }: { id: string; transaction: Transaction | null }) => {
      const row = context.asOf === null ? context.transactions.find((shown) => shown.id === id) : undefined;
      return row !== undefined && (transaction === null || transaction.status !== row.status || transaction.amount !== row.amount);
    },
    /**
     * A last-known copy, and nothing else on screen: no rows yet, or that copy itself (asked for again
     * with no answer, it stays the copy, with its time). Fresh rows stay, with the failure said.
     */
    canShowLastKnown: ({ context }) => context.lastKnown !== null && (context.transactions.length === 0 || context.asOf !== null),
  },
  actors: {
    getTransactions: fromPromise<TransactionsPage, { cursor: string | null }>(async () => {
      throw new Error('getTransactions not provided');
    }),
  },
}).createMachine({
  id: 'activity',
  context: ({ input }) => ({ transactions: [], nextCursor: null, asOf: null, fees: null, lastKnown: input?.lastKnown ?? null }),
  initial: 'firstPage',
  // In every state, also while a page is on its way or after one failed.
  on: {
    'transaction.seen': [
      {
        guard: { type: 'changesFreshRow', params: ({ event }) => event },
        actions: [{ type: 'replaceRow', params: ({ event }) => event }, 'refreshHome'],
      },
      { guard: 'showsFreshRows', actions: { type: 'replaceRow', params: ({ event }) => event } },
    ],
  },
  states: {
    /** The newest page: on opening, on refresh, and on a retry after it failed. */
    firstPage: {
      tags: ['busy', 'firstPage'],
      invoke: {
        id: 'getTransactions',
        src: 'getTransactions',
        input: () => ({ cursor: null }),
        onDone: [
          {
            guard: { type: 'isLastPage', params: ({ event }) => event.output },
            target: 'noMore',
            actions: [
              { type: 'replaceRows', params: ({ event }) => event.output },
              { type: 'keepLastKnown', params: ({ event }) => event.output },
            ],
          },
          {
            target: 'complete',
            actions: [
              { type: 'replaceRows', params: ({ event }) => event.output },
              { type: 'keepLastKnown', params: ({ event }) => event.output },
            ],
          },
        ],
        onError: [{ guard: 'canShowLastKnown', target: 'lastKnown', actions: 'showLastKnown' }, { target: 'firstPageFailed' }],
      },
      initial: 'waiting',
      states: {
        waiting: { after: { slowAnswer: { guard: 'canShowLastKnown', target: 'slow', actions: 'showLastKnown' } } },
        /**
         * The newest page is slow (a weak signal can hold it up to the API's two minutes): the last-known
         * copy shows meanwhile, with its time, and Try again asks anew.
         */
        slow: { on: { 'user.retry': { target: '#activity.firstPage', reenter: true } } },
      },
    },
    firstPageFailed: {
      tags: ['failed', 'firstPage'],
      on: { 'user.retry': 'firstPage', 'user.refresh': { target: 'firstPage', actions: 'refreshHome' } },
    },
    /** COMPLETE: more pages can be asked for. */
    complete: {
      on: {
        'user.loadMore': 'nextPage',
        'user.refresh': { target: 'firstPage', actions: 'refreshHome' },
      },
    },
    nextPage: {
      tags: ['busy'],
      invoke: {
        id: 'getTransactions',
        src: 'getTransactions',
        input: ({ context }) => ({ cursor: context.nextCursor }),
        onDone: [
          {
            guard: { type: 'isLastPage', params: ({ event }) => event.output },
            target: 'noMore',
            actions: { type: 'appendRows', params: ({ event }) => event.output },
          },
          { target: 'complete', actions: { type: 'appendRows', params: ({ event }) => event.output } },
        ],
        onError: 'nextPageFailed',
      },
    },
    nextPageFailed: {
      tags: ['failed'],
      on: { 'user.retry': 'nextPage', 'user.refresh': { target: 'firstPage', actions: 'refreshHome' } },
    },
    /** No answer: the last-known newest page, with its time; trying again asks for the newest page. */
    lastKnown: {
      on: { 'user.retry': 'firstPage', 'user.refresh': { target: 'firstPage', actions: 'refreshHome' } },
    },
    /** NO_MORE: the oldest transaction is shown. */
    noMore: {
      tags: ['noMore'],
      on: { 'user.refresh': { target: 'firstPage', actions: 'refreshHome' } },
    },
  },
});

/**
 * What the list knows of transaction `id`: its row as shown, else its row in the last-known copy (a
 * detail opened from home while the list's first page is still on its way, or could not come).
 */
export const knownRow = (context: Pick<ActivityContext, 'transactions' | 'lastKnown'>, id: string): Transaction | null =>
  context.transactions.find((row) => row.id === id) ?? context.lastKnown?.data.transactions.find((row) => row.id === id) ?? null;

/** The spec's loading status of a snapshot. */
export const loadingStatusOf = (snapshot: { hasTag: (tag: ActivityTag) => boolean }): LoadingStatus =>
  snapshot.hasTag('busy') ? 'LOADING' : snapshot.hasTag('noMore') ? 'NO_MORE' : 'COMPLETE';
