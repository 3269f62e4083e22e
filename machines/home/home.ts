/**
 * Home data (spec §7 GET /home): load, show, refresh with a loading flag (the previous data stays),
 * retry after a failure. With no answer, or none yet after `slowAnswer`, the last-known copy is shown
 * with the time it was fetched ("as of") instead of nothing: the newest answer of this visit, else the
 * copy kept on this phone (the app keeps one standalone only). So a refresh that gets no answer leaves
 * the account shown, now with its time, never an older copy. An answer the app already has when the chart starts (the first
 * screen's early call) shows at once.
 */
import { assign, fromPromise } from 'xstate';
import { setup } from '../shared/setup.ts';
import type { HomeAnswer } from '../../contract/home/types.ts';
import { type LastKnown, slowAnswerMs } from '../shared/lastKnown.ts';

export type HomeInput = { lastKnown?: LastKnown<HomeAnswer> | null; answered?: HomeAnswer | null } | undefined;
export type HomeContext = {
  home: HomeAnswer | null;
  /** When `home` is the last-known copy: when it was fetched; null when it is fresh. */
  asOf: string | null;
  /** What to show with no answer: the newest answer so far, else the copy kept on this phone. */
  lastKnown: LastKnown<HomeAnswer> | null;
};
export type HomeEvent = { type: 'user.refresh' } | { type: 'user.retry' };

/**
 * What views ask the chart: `busy` while home data loads (the previous data stays), `failed` when it
 * could not and there is nothing to show. The data shown is the last-known copy while `asOf` is set
 * (also while it is being loaded again).
 */
export type HomeTag = 'busy' | 'failed';

export const homeMachine = setup({
  types: { input: {} as HomeInput, context: {} as HomeContext, events: {} as HomeEvent, tags: {} as HomeTag },
  actions: {
    // Date.now(), which path generation stops (tests/support/chartPaths.ts): states are told apart by their context.
    storeHome: assign((_, home: HomeAnswer) => ({ home, asOf: null, lastKnown: { data: home, fetchedAt: new Date(Date.now()).toISOString() } })),
    showLastKnown: assign(({ context }) => ({ home: context.lastKnown!.data, asOf: context.lastKnown!.fetchedAt })),
    /** Keeps the fresh data as the last-known copy (supplied by the app; standalone only). */
    keepLastKnown: (_, _home: HomeAnswer) => {},
    /** Tells the companion app what its content may depend on (supplied by home's screen). */
    sendSitevars: (_, _home: HomeAnswer) => {},
  },
  delays: {
    /** How long the answer may take before the last-known copy shows meanwhile. */
    slowAnswer: slowAnswerMs,
  },
  guards: {
    hasLastKnown: ({ context }) => context.lastKnown !== null,
    answered: ({ context }) => context.home !== null,
  },
  actors: {
    /** `quiet`: with a last-known copy to show, a missing answer is said on the screen, not in the error modal. */
    getHome: fromPromise<HomeAnswer, { quiet: boolean }>(async () => {
      throw new Error('getHome not provided');
    }),
  },
}).createMachine({
  id: 'home',
  context: ({ input }) => ({ home: input?.answered ?? null, asOf: null, lastKnown: input?.lastKnown ?? null }),
  initial: 'start',
  states: {
    /**
     * The first screen's early call (src/features/home/earlyHome.ts) is often answered while the
     * screen's code loads: then the account shows in the screen's first render, without a loading state.
     */
    start: {
      always: [
        {
          guard: 'answered',
          target: 'ready',
          actions: [
            { type: 'storeHome', params: ({ context }) => context.home! },
            { type: 'keepLastKnown', params: ({ context }) => context.home! },
            { type: 'sendSitevars', params: ({ context }) => context.home! },
          ],
        },
        { target: 'loading' },
      ],
    },
    /** Keeps the previous data on screen while a refresh runs. */
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'getHome',
        src: 'getHome',
        input: ({ context }) => ({ quiet: context.lastKnown !== null }),
        onDone: {
          target: 'ready',
          actions: [
            { type: 'storeHome', params: ({ event }) => event.output },
            { type: 'keepLastKnown', params: ({ event }) => event.output },
            { type: 'sendSitevars', params: ({ event }) => event.output },
          ],
        },
        onError: [{ guard: 'hasLastKnown', target: 'lastKnown', actions: 'showLastKnown' }, { target: 'failed' }],
      },
      initial: 'waiting',
      states: {
        waiting: { after: { slowAnswer: { guard: 'hasLastKnown', target: 'slow', actions: 'showLastKnown' } } },
        /**
         * The answer is slow (a weak signal can hold it up to the API's two minutes): the last-known copy
         * shows meanwhile, with its time, and Try again asks anew.
         */
        slow: { on: { 'user.retry': { target: '#home.loading', reenter: true } } },
      },
    },
    ready: { on: { 'user.refresh': 'loading' } },
    failed: { tags: ['failed'], on: { 'user.retry': 'loading' } },
    /** No answer (offline, most likely): the last-known copy, with its time. */
    lastKnown: { on: { 'user.retry': 'loading', 'user.refresh': 'loading' } },
  },
});
