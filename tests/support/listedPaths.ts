/**
 * Path generation for large charts: like generatePaths (chartCoverage.ts), but only the listed
 * events are ever sent (chartPaths.ts `listedOnly`). Several runs, each with the events of one part of
 * the chart (and an input that starts there), then cover the whole chart together (coverageOf takes
 * every run).
 */
import type { AnyMachineSnapshot, AnyStateMachine, EventObject } from 'xstate';
import { traverseChart, type PathRun, type TraversalOptions } from './chartPaths.ts';

export function generateListedPaths<T extends AnyStateMachine>(
  machine: T,
  events: readonly EventObject[],
  input?: unknown,
  options: Omit<TraversalOptions, 'listedOnly'> = {},
): PathRun & { start: AnyMachineSnapshot } {
  return traverseChart(machine, events, input, { ...options, listedOnly: true });
}
