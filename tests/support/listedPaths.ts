/**
 * Path generation for large charts: like generatePaths (chartCoverage.ts), but only the listed
 * events are ever sent. xstate/graph otherwise also sends a bare `{ type }` for every other event the
 * state accepts, which on a chart of many steps multiplies the paths without covering anything new.
 * Several runs, each with the events of one part of the chart (and an input that starts there),
 * then cover the whole chart together (coverageOf takes every run).
 */
import { getNextSnapshot, type AnyMachineSnapshot, type AnyStateMachine, type EventObject } from 'xstate';
import { getSimplePaths, type StatePath } from 'xstate/graph';
import type { PathRun } from './chartCoverage.ts';

type Path = StatePath<AnyMachineSnapshot, EventObject>;

export function generateListedPaths<T extends AnyStateMachine>(
  machine: T,
  events: readonly EventObject[],
  input?: unknown,
): PathRun & { start: AnyMachineSnapshot } {
  const listed = new Set(events.map((event) => event.type));
  const simple = getSimplePaths(machine, {
    events: events as never,
    input: input as never,
    filterEvents: (_state: unknown, event: EventObject) => listed.has(event.type),
  } as never) as unknown as Path[];
  // As in generatePaths: one more step after each simple path, so transitions back to states already
  // on the path (retry, go back) are walked too.
  const closing = simple.flatMap((path) =>
    events
      .filter((event) => path.state.status === 'active' && path.state.can(event))
      .map((event) => {
        const state = getNextSnapshot(machine, path.state as never, event as never) as AnyMachineSnapshot;
        return { ...path, state, steps: [...path.steps, { event, state }], weight: path.weight + 1 };
      }),
  );
  const start = simple[0]?.steps[0]?.state;
  if (!start) throw new Error(`${machine.id}: no paths generated`);
  return { start, paths: [...simple, ...closing], input };
}
