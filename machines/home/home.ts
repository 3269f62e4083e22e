/** Home data (spec §7 GET /home): load, show, refresh with a loading flag, retry after a failure. */
import { assign, fromPromise, setup } from 'xstate';
import type { HomeAnswer } from '../../contract/home/types.ts';

export type HomeContext = { home: HomeAnswer | null };
export type HomeEvent = { type: 'user.refresh' } | { type: 'user.retry' };

/** What views ask the chart: `busy` while home data loads (the previous data stays), `failed` when it could not. */
export type HomeTag = 'busy' | 'failed';

export const homeMachine = setup({
  types: { context: {} as HomeContext, events: {} as HomeEvent, tags: {} as HomeTag },
  actions: {
    storeHome: assign({ home: (_, home: HomeAnswer) => home }),
  },
  actors: {
    getHome: fromPromise<HomeAnswer>(async () => {
      throw new Error('getHome not provided');
    }),
  },
}).createMachine({
  id: 'home',
  context: { home: null },
  initial: 'loading',
  states: {
    /** Keeps the previous data on screen while a refresh runs. */
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'getHome',
        src: 'getHome',
        onDone: { target: 'ready', actions: { type: 'storeHome', params: ({ event }) => event.output } },
        onError: { target: 'failed' },
      },
    },
    ready: { on: { 'user.refresh': 'loading' } },
    failed: { tags: ['failed'], on: { 'user.retry': 'loading' } },
  },
});
