/**
 * Generated path tests over the experiments chart (machines/experiments/experiments.ts). The fetch's outcomes
 * and the session's isInternal changes are environment events; each path is replayed on a live
 * actor whose fetch is a deferred promise the test settles as the path says. After every step the
 * live chart must be in the path's state, and what the app sees (flags, the fetch's input, what
 * was exposed to analytics and reported) must match what the events so far say, worked out here
 * without the chart.
 */
import { describe, expect, it } from 'vitest';
import {
  createActor,
  fromPromise,
  type AnyStateNode,
  type EventObject,
} from 'xstate';
import type { ExperimentFlags } from '../../contract/experiments/types.ts';
import { experimentsMachine, flagsOff } from '../../machines/experiments/experiments.ts';
import { coverageOf, describePath, flush, generatePaths } from '../support/chartCoverage.ts';


/** The id XState gives the fetch's invoke (the chart does not name it, so it is generated). */
const fetchId = (() => {
  const [invoke] = (experimentsMachine.root.states as Record<string, AnyStateNode>).loading!.invoke as { id: string }[];
  if (!invoke) throw new Error('loading invokes nothing');
  return invoke.id;
})();
const fetchDone = `xstate.done.actor.${fetchId}`;
const fetchError = `xstate.error.actor.${fetchId}`;

const someFlags: ExperimentFlags = { virtualCards: true, directDeposit: false, cashLoadMap: true, showNewDebitDetails: true };
const input = { isInternal: false };

const events: (EventObject & Record<string, unknown>)[] = [
  { type: fetchDone, output: someFlags },
  // 404: no experiment config for this user.
  { type: fetchDone, output: null },
  { type: fetchError, error: new Error('Refused with statusCode 5') },
  { type: 'session.internalChanged', isInternal: true },
  { type: 'session.internalChanged', isInternal: false },
];

const { paths } = generatePaths(experimentsMachine, events, input);

// --- the replay ---------------------------------------------------------------------------------

type Fetch = { input: { isInternal: boolean }; resolve: (flags: ExperimentFlags | null) => void; reject: (error: unknown) => void };

function startExperiments(isInternal = input.isInternal) {
  const fetches: Fetch[] = [];
  const exposed: ExperimentFlags[] = [];
  const reported: unknown[] = [];
  const actor = createActor(
    experimentsMachine.provide({
      actions: {
        exposeFlags: (_, flags) => void exposed.push(flags),
        reportFailure: (_, error) => void reported.push(error),
      },
      actors: {
        fetchExperiments: fromPromise<ExperimentFlags | null, { isInternal: boolean }>(
          ({ input: fetchInput }) => new Promise((resolve, reject) => fetches.push({ input: fetchInput, resolve, reject })),
        ),
      },
    }),
    { input: { isInternal } },
  ).start();
  return { actor, fetches, exposed, reported };
}

type Expected = { isInternal: boolean; flags: ExperimentFlags; fetchInputs: boolean[]; exposed: ExperimentFlags[]; reported: unknown[] };

function expectedAfter(previous: Expected, event: EventObject & Record<string, unknown>): Expected {
  switch (event.type) {
    case fetchDone: {
      const flags = (event.output as ExperimentFlags | null) ?? flagsOff;
      return { ...previous, flags, exposed: [...previous.exposed, flags] };
    }
    case fetchError:
      return { ...previous, flags: flagsOff, reported: [...previous.reported, event.error] };
    case 'session.internalChanged': {
      const isInternal = event.isInternal as boolean;
      // The config is fetched again for the new value; until it answers, the old flags stay.
      return { ...previous, isInternal, fetchInputs: [...previous.fetchInputs, isInternal] };
    }
    default:
      return previous;
  }
}

describe('experiments chart', () => {
  it('generated paths reach every state and transition ', () => {
    expect(coverageOf(experimentsMachine, [{ paths, input }])).toEqual({ missingStates: [], missingTransitions: [] });
  });

  it('the exact coverage measure can fail: without session.internalChanged its transition is missing', () => {
    const fewer = events.filter((event) => event.type !== 'session.internalChanged');
    expect(coverageOf(experimentsMachine, [generatePaths(experimentsMachine, fewer, input)])).toEqual({
      missingStates: [],
      missingTransitions: ['experiments --session.internalChanged--> experiments.loading'],
    });
  });

  it('paths take session.internalChanged from every state, to both values', () => {
    const taken = new Set<string>();
    for (const path of paths) {
      path.steps.forEach((step, index) => {
        const before = index === 0 ? undefined : path.steps[index - 1]!.state;
        if (before && step.event.type === 'session.internalChanged') {
          taken.add(`${String(before.value)} → ${String((step.event as { isInternal?: boolean }).isInternal)}`);
        }
      });
    }
    expect([...taken].sort()).toEqual([
      'failed → false',
      'failed → true',
      'loaded → false',
      'loaded → true',
      'loading → false',
      'loading → true',
    ]);
  });

  it.each(paths.map((path) => [describePath(path), path] as const))('path %s', async (_name, path) => {
    const { actor, fetches, exposed, reported } = startExperiments();
    let expected: Expected = { isInternal: input.isInternal, flags: flagsOff, fetchInputs: [input.isInternal], exposed: [], reported: [] };
    for (const step of path.steps) {
      const event = step.event as EventObject & Record<string, unknown>;
      if (event.type === fetchDone || event.type === fetchError) {
        const current = fetches.at(-1);
        if (!current) throw new Error('No fetch was started');
        if (event.type === fetchDone) current.resolve(event.output as ExperimentFlags | null);
        else current.reject(event.error);
      } else if (event.type !== 'xstate.init') actor.send(event as never);
      await flush();
      expected = expectedAfter(expected, event);

      const snapshot = actor.getSnapshot();
      expect(snapshot.value).toEqual(step.state.value);
      expect(snapshot.hasTag('settled')).toBe(!snapshot.matches('loading'));
      expect(snapshot.context.flags).toEqual(expected.flags);
      if (snapshot.matches('failed')) expect(snapshot.context.flags).toEqual(flagsOff);
      // One fetch per entry to loading, each for the isInternal of that moment.
      expect(fetches.map((fetch) => fetch.input.isInternal)).toEqual(expected.fetchInputs);
      expect(exposed).toEqual(expected.exposed);
      expect(reported).toEqual(expected.reported);
    }
    actor.stop();
  });

  it('a 404 (no config) leaves every flag off and exposes them as off', async () => {
    const { actor, fetches, exposed, reported } = startExperiments();
    fetches[0]!.resolve(null);
    await flush();
    expect(actor.getSnapshot().value).toBe('loaded');
    expect(actor.getSnapshot().context.flags).toEqual({ virtualCards: false, directDeposit: false, cashLoadMap: false, showNewDebitDetails: false });
    expect(exposed).toEqual([flagsOff]);
    expect(reported).toEqual([]);
    actor.stop();
  });

  it('a failed fetch after loaded flags turns every flag off and reports the error', async () => {
    const { actor, fetches, reported } = startExperiments();
    fetches[0]!.resolve(someFlags);
    await flush();
    actor.send({ type: 'session.internalChanged', isInternal: true });
    const failure = new Error('Refused with statusCode 5');
    fetches[1]!.reject(failure);
    await flush();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.flags).toEqual(flagsOff);
    expect(reported).toEqual([failure]);
    actor.stop();
  });

  it('an answer to the fetch for the old isInternal, arriving after the change, is ignored', async () => {
    const { actor, fetches, exposed } = startExperiments(false);
    actor.send({ type: 'session.internalChanged', isInternal: true });
    expect(fetches.map((fetch) => fetch.input)).toEqual([{ isInternal: false }, { isInternal: true }]);
    fetches[0]!.resolve({ ...flagsOff, virtualCards: true });
    await flush();
    expect(actor.getSnapshot().value).toBe('loading');
    expect(actor.getSnapshot().context.flags).toEqual(flagsOff);
    expect(exposed).toEqual([]);
    fetches[1]!.resolve(someFlags);
    await flush();
    expect(actor.getSnapshot().value).toBe('loaded');
    expect(actor.getSnapshot().context).toEqual({ isInternal: true, flags: someFlags });
    expect(exposed).toEqual([someFlags]);
    actor.stop();
  });

  it('a failure of the fetch for the old isInternal, arriving after the change, is neither reported nor clears flags', async () => {
    const { actor, fetches, reported } = startExperiments(false);
    fetches[0]!.resolve(someFlags);
    await flush();
    actor.send({ type: 'session.internalChanged', isInternal: true });
    actor.send({ type: 'session.internalChanged', isInternal: false });
    fetches[1]!.reject(new Error('stale'));
    await flush();
    expect(actor.getSnapshot().value).toBe('loading');
    expect(actor.getSnapshot().context.flags).toEqual(someFlags);
    expect(reported).toEqual([]);
    expect(fetches.at(-1)!.input).toEqual({ isInternal: false });
    actor.stop();
  });
});
