/**
 * The coverage check the flow tests rely on must be able to fail: paths generated from an
 * incomplete event list have to be reported as missing states and transitions.
 */
import { describe, expect, it } from 'vitest';
import { assign, fromPromise, setup } from 'xstate';
import type { HomeAnswer } from '../../contract/home/types.ts';
import { chartInventory, coverageOf, generatePaths, minimalCover, type PathRun } from '../support/chartCoverage.ts';
import { generateListedPaths } from '../support/listedPaths.ts';

/**
 * The tool's own fixture: a home-data chart as machines/home/home.ts once was (load, show, refresh,
 * retry; a last-known copy with no answer; an answer already there at start), kept here so that the
 * product's chart can change without these expectations.
 */
type FixtureInput = { lastKnown?: { data: HomeAnswer; fetchedAt: string } | null; answered?: HomeAnswer | null } | undefined;
const homeMachine = setup({
  types: {
    input: {} as FixtureInput,
    context: {} as { home: HomeAnswer | null; lastKnown: { data: HomeAnswer; fetchedAt: string } | null },
    events: {} as { type: 'user.refresh' } | { type: 'user.retry' },
  },
  guards: {
    hasLastKnown: ({ context }) => context.lastKnown !== null,
    answered: ({ context }) => context.home !== null,
  },
  actors: { getHome: fromPromise<HomeAnswer>(async () => ({ statusCode: 0 }) as HomeAnswer) },
}).createMachine({
  id: 'home',
  context: ({ input }) => ({ home: input?.answered ?? null, lastKnown: input?.lastKnown ?? null }),
  initial: 'start',
  states: {
    start: { always: [{ guard: 'answered', target: 'ready' }, { target: 'loading' }] },
    loading: {
      invoke: {
        id: 'getHome',
        src: 'getHome',
        // The answer is the newest copy too: a later failure shows it (`lastKnown`).
        onDone: { target: 'ready', actions: assign(({ event }) => ({ home: event.output, lastKnown: { data: event.output, fetchedAt: '2026-11-24T18:00:00Z' } })) },
        onError: [{ guard: 'hasLastKnown', target: 'lastKnown' }, { target: 'failed' }],
      },
    },
    ready: { on: { 'user.refresh': 'loading' } },
    failed: { on: { 'user.retry': 'loading' } },
    lastKnown: { on: { 'user.retry': 'loading', 'user.refresh': 'loading' } },
  },
});

const home = { statusCode: 0 } as HomeAnswer;
const done = { type: 'xstate.done.actor.getHome', output: home };
const error = { type: 'xstate.error.actor.getHome', error: new Error('no statusCode') };
const retry = { type: 'user.retry' };
const refresh = { type: 'user.refresh' };

const startToReady = 'home.start --always[answered]--> home.ready';
const startToLoading = 'home.start --always--> home.loading';
const loadingToReady = 'home.loading --xstate.done.actor.getHome--> home.ready';
const loadingToFailed = 'home.loading --xstate.error.actor.getHome--> home.failed';
const readyToLoading = 'home.ready --user.refresh--> home.loading';
const failedToLoading = 'home.failed --user.retry--> home.loading';
const loadingToLastKnown = 'home.loading --xstate.error.actor.getHome[hasLastKnown]--> home.lastKnown';
const lastKnownRetry = 'home.lastKnown --user.retry--> home.loading';
const lastKnownRefresh = 'home.lastKnown --user.refresh--> home.loading';

// The chart from a phone with nothing kept, from one with a last-known copy (its `lastKnown` state), and
// with the first screen's early call already answered (straight to `ready`).
const kept = { lastKnown: { data: home, fetchedAt: '2026-11-24T18:00:00Z' } };
const answered = { answered: home };
const runs = (events: { type: string }[]) => [
  generatePaths(homeMachine, events),
  generatePaths(homeMachine, events, kept),
  generatePaths(homeMachine, events, answered),
];
const coverage = (events: { type: string }[]) => coverageOf(homeMachine, runs(events));

describe('chart coverage on the home chart', () => {
  it('inventories every state and transition of the chart', () => {
    expect(chartInventory(homeMachine)).toEqual({
      states: ['home.start', 'home.loading', 'home.ready', 'home.failed', 'home.lastKnown'],
      transitions: [startToReady, startToLoading, loadingToReady, loadingToLastKnown, loadingToFailed, readyToLoading, failedToLoading, lastKnownRetry, lastKnownRefresh],
    });
  });

  it('reports nothing missing for the full event list', () => {
    expect(coverage([done, error, retry, refresh])).toEqual({ missingStates: [], missingTransitions: [] });
  });

  it('without the error event, reports home.failed, home.lastKnown and their transitions as missing', () => {
    expect(coverage([done, retry, refresh])).toEqual({
      missingStates: ['home.failed', 'home.lastKnown'],
      missingTransitions: [loadingToLastKnown, loadingToFailed, failedToLoading, lastKnownRetry, lastKnownRefresh],
    });
  });

  it('from a phone with nothing kept only, reports the early answer as missing (the last-known state is reached after an answer)', () => {
    expect(coverageOf(homeMachine, [generatePaths(homeMachine, [done, error, retry, refresh])])).toEqual({
      missingStates: [],
      missingTransitions: [startToReady],
    });
  });

  it('without user.refresh, reports only the refresh transitions (every state is still reached)', () => {
    expect(coverage([done, error, retry])).toEqual({ missingStates: [], missingTransitions: [readyToLoading, lastKnownRefresh] });
  });

  it('without user.retry, reports only the retry transitions', () => {
    expect(coverage([done, error, refresh])).toEqual({ missingStates: [], missingTransitions: [failedToLoading, lastKnownRetry] });
  });

  it('with only the done event, reports failed, last known and every transition but loading → ready', () => {
    expect(coverage([done])).toEqual({
      missingStates: ['home.failed', 'home.lastKnown'],
      missingTransitions: [loadingToLastKnown, loadingToFailed, readyToLoading, failedToLoading, lastKnownRetry, lastKnownRefresh],
    });
  });

  it('with no paths at all, reports everything as missing', () => {
    expect(coverageOf(homeMachine, [{ paths: [] }])).toEqual({
      missingStates: ['home.start', 'home.loading', 'home.ready', 'home.failed', 'home.lastKnown'],
      missingTransitions: [startToReady, startToLoading, loadingToReady, loadingToLastKnown, loadingToFailed, readyToLoading, failedToLoading, lastKnownRetry, lastKnownRefresh],
    });
  });

  it('credits a path that begins a longer one with what it reached itself, not what the longer one went on to reach', () => {
    const { paths } = generatePaths(homeMachine, [done, error, retry, refresh]);
    const long = paths.find((path) => path.steps.length >= 4)!;
    const short = { ...long, steps: long.steps.slice(0, 2), state: long.steps[1]!.state };
    // The same steps with event objects of their own: each walked alone, from the start.
    const alone = (path: typeof long) => ({ ...path, steps: path.steps.map((step) => ({ ...step, event: { ...step.event } })) });
    const reachedAlone = coverageOf(homeMachine, [{ paths: [alone(short)] }]);
    expect(reachedAlone).not.toEqual(coverageOf(homeMachine, [{ paths: [alone(long)] }]));

    // Walked together (the longer one's walk serves both), then asked about on its own.
    coverageOf(homeMachine, [{ paths: [short, long] }]);
    expect(coverageOf(homeMachine, [{ paths: [short] }])).toEqual(reachedAlone);
  });

  it('the minimal cover replayed by the flow tests still covers everything', () => {
    const covers = runs([done, error, retry, refresh]).map((run) => ({ run, cover: minimalCover(homeMachine, run) }));
    for (const { run, cover } of covers) {
      expect(cover.length).toBeGreaterThan(0);
      expect(cover.length).toBeLessThan(run.paths.length);
    }
    expect(coverageOf(homeMachine, covers.map(({ run, cover }) => ({ paths: cover, input: run.input })))).toEqual({
      missingStates: [],
      missingTransitions: [],
    });
  });
});

describe('runs that start through fixed steps (`through`)', () => {
  // From a phone with nothing kept, the chart is loading at first: `ready` is where the run begins.
  const through = [done];

  it('begins every path with the leading steps, then the paths from where they lead', () => {
    const { paths, start } = generateListedPaths(homeMachine, [refresh, error, retry], undefined, { through });
    expect(start.value).toBe('loading');
    expect(paths.length).toBeGreaterThan(1);
    for (const path of paths) {
      expect(path.steps.slice(0, 2).map((step) => [step.event.type, step.state.value])).toEqual([
        ['xstate.init', 'loading'],
        ['xstate.done.actor.getHome', 'ready'],
      ]);
      expect(path.steps[1]!.event).toBe(done);
      expect(path.weight).toBe(path.steps.length - 1);
    }
    // The lead's own steps are walked and counted (loading → ready); what only the start reaches, a
    // failure before any answer, is not: the lead went past it (after an answer, an error is lastKnown).
    expect(coverageOf(homeMachine, [generateListedPaths(homeMachine, [refresh, error, retry], undefined, { through })])).toEqual({
      missingStates: ['home.failed'],
      missingTransitions: [startToReady, loadingToFailed, failedToLoading],
    });
  });

  it('refuses a leading step the chart does not take', () => {
    expect(() => generateListedPaths(homeMachine, [refresh], undefined, { through: [retry] })).toThrow(
      'home: user.retry does nothing at "loading", so it cannot lead a run there',
    );
  });
});

describe('path generation and the clock', () => {
  // A retry loop that keeps a deadline in context, as the charts do (machines/shared/serverWait.ts). The
  // guard only keeps this test finite if generation ever follows the clock again.
  const waiting = setup({
    types: { context: {} as { since: number; retryAt: number }, events: {} as { type: 'user.submit' } | { type: 'server.tooMany' } },
  }).createMachine({
    id: 'wait',
    initial: 'idle',
    context: () => ({ since: Date.now(), retryAt: Date.now() }),
    states: {
      idle: { on: { 'user.submit': { guard: ({ context }) => context.retryAt - context.since < 20, target: 'checking' } } },
      checking: { on: { 'server.tooMany': { target: 'idle', actions: assign({ retryAt: () => Date.now() }) } } },
    },
  });
  const events = [{ type: 'user.submit' }, { type: 'server.tooMany' }];
  /** The paths as their events, the states they lead to and the wait in context (the clock's reading itself differs). */
  const described = (run: PathRun) =>
    run.paths.map((path) =>
      path.steps
        .map(({ event, state }) => `${event.type}→${JSON.stringify(state.value)} wait ${state.context.retryAt - state.context.since}`)
        .join(' ; '),
    );

  /** Runs `work` on a slow machine's clock: it moves on every read. */
  function onATickingClock<T>(work: () => T): T {
    const now = Date.now;
    let tick = now();
    Date.now = () => ++tick;
    try {
      return work();
    } finally {
      Date.now = now;
    }
  }

  it.each([
    ['generatePaths', generatePaths],
    ['generateListedPaths', generateListedPaths],
  ] as const)('%s gives the same paths on a slow machine, where the clock moves between any two reads', (_name, generate) => {
    const onTime = described(generate(waiting, events));
    expect(onTime.length).toBeGreaterThan(0);
    expect(described(onATickingClock(() => generate(waiting, events)))).toEqual(onTime);
  });

  // A chart whose states never repeat: a count in context that every event raises.
  const counting = setup({ types: { context: {} as { count: number }, events: {} as { type: 'user.add' } } }).createMachine({
    id: 'counting',
    context: { count: 0 },
    on: { 'user.add': { actions: assign({ count: ({ context }) => context.count + 1 }) } },
  });

  it.each([
    ['generatePaths', generatePaths],
    ['generateListedPaths', generateListedPaths],
  ] as const)('%s stops a generation without end at once, naming the chart', (_name, generate) => {
    expect(() => generate(counting, [{ type: 'user.add' }], undefined, { limit: 500 })).toThrow(
      'counting: path generation looked at more than 500 states and stopped.',
    );
  });
});
