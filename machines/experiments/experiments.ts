/**
 * Experiment configuration (spec §6, §7): fetched from the card API for this user (isInternal is
 * passed in), fetched again when that changes. No config (404) means every flag is off; any other
 * failure is reported and also leaves every flag off. Loaded flags are exposed to analytics.
 */
import { assign, fromPromise } from 'xstate';
import { setup } from '../shared/setup.ts';
import type { ExperimentFlags } from '../../contract/experiments/types.ts';

export const flagsOff: ExperimentFlags = {
  virtualCards: false,
  directDeposit: false,
  cashLoadMap: false,
  showNewDebitDetails: false,
};

export type ExperimentsContext = { isInternal: boolean; flags: ExperimentFlags };
export type ExperimentsEvent = { type: 'session.internalChanged'; isInternal: boolean };

export const experimentsMachine = setup({
  types: {
    context: {} as ExperimentsContext,
    events: {} as ExperimentsEvent,
    input: {} as { isInternal: boolean },
  },
  actions: {
    storeFlags: assign((_, flags: ExperimentFlags | null) => ({ flags: flags ?? flagsOff })),
    clearFlags: assign({ flags: flagsOff }),
    setInternal: assign((_, isInternal: boolean) => ({ isInternal })),
    /** Supplied by the app: experiment exposures become analytics user properties. */
    exposeFlags: (_, _flags: ExperimentFlags) => {},
    /** Supplied by the app: a failed fetch (other than 404) goes to error reporting. */
    reportFailure: (_, _error: unknown) => {},
  },
  actors: {
    fetchExperiments: fromPromise<ExperimentFlags | null, { isInternal: boolean }>(async () => null),
  },
}).createMachine({
  id: 'experiments',
  initial: 'loading',
  context: ({ input }) => ({ isInternal: input.isInternal, flags: flagsOff }),
  on: {
    'session.internalChanged': {
      target: '.loading',
      actions: { type: 'setInternal', params: ({ event }) => event.isInternal },
    },
  },
  states: {
    loading: {
      invoke: {
        src: 'fetchExperiments',
        input: ({ context }) => ({ isInternal: context.isInternal }),
        onDone: {
          target: 'loaded',
          actions: [
            { type: 'storeFlags', params: ({ event }) => event.output },
            { type: 'exposeFlags', params: ({ context }) => context.flags },
          ],
        },
        onError: {
          target: 'failed',
          actions: ['clearFlags', { type: 'reportFailure', params: ({ event }: { event: { error: unknown } }) => event.error }],
        },
      },
    },
    loaded: { tags: ['settled'] },
    failed: { tags: ['settled'] },
  },
});
