/**
 * The one traversal behind every path generator (generatePaths in chartCoverage.ts,
 * generateListedPaths in listedPaths.ts, and any later one): it alone decides what a path is, so what
 * keeps generation finite and repeatable holds for all of them.
 *
 * - Time stands still: charts keep deadlines in context (machines/shared/serverWait.ts `retryAt`, Date.now()
 *   + the wait) and states are told apart by their context, so with a ticking clock no state repeats
 *   and retry loops generate paths without end on a slow machine. Time passes in a path only where
 *   the path says so, with the chart's own `xstate.after.*` event; replays do the same (replayClock.ts).
 * - The work is counted, not timed: past `traversalLimit` states looked at, generation stops with an
 *   error naming the chart. A synchronous loop cannot be interrupted by Vitest's timers, so a chart that
 *   makes paths explode fails at once, the same on every machine, instead of hanging its test file.
 */
import { getInitialSnapshot, getNextSnapshot, type AnyMachineSnapshot, type AnyStateMachine, type EventObject } from 'xstate';
import { getShortestPaths, getSimplePaths, serializeSnapshot, type StatePath } from 'xstate/graph';

export type Path = StatePath<AnyMachineSnapshot, EventObject>;
/** What a generator answers: the paths and the input the chart was started with. */
export type PathRun = { paths: Path[]; input?: unknown };

/**
 * States one generation may look at (each state once per way of reaching it). The largest run today
 * (the session chart from locked) looks at about 69,000, in a second or two; a chart that needs more
 * should be split into runs (listedPaths.ts) or use shortest paths.
 */
export const traversalLimit = 100_000;

export type TraversalOptions = {
  /** How states are told apart, when the default (value and whole context) would never run out of them. */
  serializeState?: (snapshot: AnyMachineSnapshot) => string;
  /**
   * Shortest paths instead of simple ones, for charts whose paths explode: with the closing step
   * they still take every transition from every state they reach.
   */
  shortest?: boolean;
  /**
   * Send only the listed events. xstate/graph otherwise also sends a bare `{ type }` for every other
   * event a state accepts, which on a chart of many steps multiplies the paths without covering anything.
   */
  listedOnly?: boolean;
  /** At most this many states looked at (`traversalLimit` unless a test of the limit says less). */
  limit?: number;
  /**
   * Events sent first, one after the other, the same in every path: how a part of the chart that no
   * input starts at is reached (a step after one the chart always asks for again). Paths are generated
   * from where they lead, and each path begins with them, so replays and coverage walk them too.
   */
  through?: readonly EventObject[];
};

/** Runs `work` with Date.now() stopped, as path generation sees time. */
export function onAStoppedClock<T>(work: () => T): T {
  const now = Date.now;
  const stopped = now();
  Date.now = () => stopped;
  try {
    return work();
  } finally {
    Date.now = now;
  }
}

/** The chart's start (`xstate.init`), then the state after each of the given events in turn. */
function leadingSteps(machine: AnyStateMachine, input: unknown, events: readonly EventObject[]): Path['steps'] {
  let state = getInitialSnapshot(machine, input as never) as AnyMachineSnapshot;
  const steps: Path['steps'] = [{ event: { type: 'xstate.init' }, state }];
  for (const event of events) {
    if (!state.can(event)) throw new Error(`${machine.id}: ${event.type} does nothing at ${JSON.stringify(state.value)}, so it cannot lead a run there`);
    state = getNextSnapshot(machine, state as never, event as never) as AnyMachineSnapshot;
    steps.push({ event, state });
  }
  return steps;
}

/**
 * All simple paths (or the shortest path to each state) from the chart's start under the given
 * events, each also extended by one more step for every event its last state accepts: simple paths
 * never revisit a state, so without that step the transitions back to earlier states (retry, try
 * again) would never be walked.
 */
export function traverseChart(
  machine: AnyStateMachine,
  events: readonly EventObject[],
  input: unknown,
  options: TraversalOptions = {},
): PathRun & { start: AnyMachineSnapshot } {
  return onAStoppedClock(() => {
    const serialize = options.serializeState ?? serializeSnapshot;
    const limit = options.limit ?? traversalLimit;
    let looked = 0;
    const counted = (snapshot: AnyMachineSnapshot) => {
      if (++looked > limit) {
        throw new Error(
          `${machine.id}: path generation looked at more than ${limit} states and stopped. ` +
            'Split the events into runs that start where a part of the chart begins, or generate shortest paths.',
        );
      }
      return serialize(snapshot);
    };
    const listed = new Set(events.map((event) => event.type));
    const traverse = options.shortest ? getShortestPaths : getSimplePaths;
    const lead = leadingSteps(machine, input, options.through ?? []);
    const fromState = lead.at(-1)!.state;
    const generated = traverse(machine, {
      events: events as never,
      input: input as never,
      serializeState: counted as never,
      ...(lead.length > 1 ? { fromState: fromState as never } : {}),
      ...(options.listedOnly ? { filterEvents: (_state: unknown, event: EventObject) => listed.has(event.type) } : {}),
    }) as unknown as Path[];
    // Each generated path starts with `xstate.init` at fromState: the leading steps come instead.
    const found = lead.length > 1 ? generated.map((path) => ({ ...path, steps: [...lead, ...path.steps.slice(1)], weight: path.weight + lead.length - 1 })) : generated;
    const closing = found.flatMap((path) =>
      events
        .filter((event) => path.state.status === 'active' && path.state.can(event))
        .map((event) => {
          const state = getNextSnapshot(machine, path.state as never, event as never) as AnyMachineSnapshot;
          return { ...path, state, steps: [...path.steps, { event, state }], weight: path.weight + 1 };
        }),
    );
    // Every path starts with the initial state, reached by the xstate.init event.
    const start = found[0]?.steps[0]?.state;
    if (!start) throw new Error(`${machine.id}: no paths generated`);
    return { start, paths: [...found, ...closing], input };
  });
}
