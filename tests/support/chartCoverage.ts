/**
 * Model-based testing support (docs/architecture.md §3): generate paths over a real chart with
 * xstate/graph, and measure which states and transitions those paths reach, so a test can assert
 * that every state and every transition of the chart is covered. Coverage is what XState itself
 * reports taking (inspection microsteps) when each path's events are sent to a live actor, so
 * eventless transitions, guarded alternatives and root-level transitions all count exactly.
 */
import {
  createActor,
  fromPromise,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyStateNode,
  type EventObject,
  type InspectionEvent,
} from 'xstate';
import { onAStoppedClock, traverseChart, type Path, type PathRun, type TraversalOptions } from './chartPaths.ts';
import { startReplayClock, stopReplayClock } from './replayClock.ts';

export type { PathRun };
type TransitionLike = {
  source: AnyStateNode;
  target?: readonly AnyStateNode[] | undefined;
  eventType: string;
  guard?: unknown;
};

function allStateNodes(node: AnyStateNode): AnyStateNode[] {
  return [node, ...Object.values(node.states as Record<string, AnyStateNode>).flatMap(allStateNodes)];
}

function guardName(guard: unknown): string {
  if (!guard) return '';
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'object' && guard !== null && 'type' in guard) return String((guard as { type: unknown }).type);
  return 'inline';
}

function transitionKey(t: TransitionLike): string {
  const targets = (t.target ?? []).map((node) => node.id).join(',') || '(self)';
  const guard = guardName(t.guard);
  return `${t.source.id} --${t.eventType || 'always'}${guard ? `[${guard}]` : ''}--> ${targets}`;
}

function transitionsOf(node: AnyStateNode): TransitionLike[] {
  const onEvents = [...(node.transitions as Map<string, TransitionLike[]>).values()].flat();
  const always = (node.always ?? []) as TransitionLike[];
  return [...onEvents, ...always.map((t) => ({ ...t, eventType: '' }))];
}

/** Every state (but the root) and every transition (the root's own included) of a chart. */
export function chartInventory(machine: AnyStateMachine) {
  const nodes = allStateNodes(machine.root);
  return {
    states: nodes.filter((node) => node !== machine.root).map((node) => node.id),
    transitions: nodes.flatMap(transitionsOf).map(transitionKey),
  };
}

type Walked = { states: Set<string>; transitions: Set<string> };
/** Each path is walked once: the coverage check and minimalCover both ask. */
const walks = new WeakMap<Path, Walked>();

/**
 * Walks the paths of a run not walked yet, the longest first. A path whose events are the first events
 * of a path already walked is not walked again: with time standing still and invoked actors never
 * settling, a chart does the same for the same events, so it reaches what that walk had reached after
 * them. (Paths are told apart by their event objects, which generation shares between paths; simple
 * paths are mostly the first steps of longer ones, so this halves the work.)
 */
function walkRun(machine: AnyStateMachine, run: PathRun): void {
  const eventIds = new Map<EventObject, number>();
  const idOf = (event: EventObject) => eventIds.get(event) ?? eventIds.set(event, eventIds.size).get(event)!;
  const reachedAfter = new Map<string, Walked>();
  const unwalked = run.paths.filter((path) => !walks.has(path)).sort((a, b) => b.steps.length - a.steps.length);
  for (const path of unwalked) {
    const events = path.steps.filter((step) => step.event.type !== 'xstate.init').map((step) => idOf(step.event));
    const key = events.join(',');
    if (!reachedAfter.has(key)) {
      const afterEach = onAStoppedClock(() => walkOnALiveActor(machine, path, run.input));
      afterEach.forEach((walked, sent) => reachedAfter.set(events.slice(0, sent).join(','), walked));
    }
    walks.set(path, reachedAfter.get(key)!);
  }
}

function walk(machine: AnyStateMachine, path: Path, run: PathRun): Walked {
  if (!walks.has(path)) walkRun(machine, run);
  return walks.get(path)!;
}

const neverSettlingCharts = new WeakMap<AnyStateMachine, AnyStateMachine>();

/** The chart with every invoked actor replaced by one that never settles: made once per chart, as
 * `provide` builds the whole chart again. */
function neverSettling(machine: AnyStateMachine): AnyStateMachine {
  let walking = neverSettlingCharts.get(machine);
  if (!walking) {
    const never = fromPromise(() => new Promise<never>(() => {}));
    const actors = Object.fromEntries(Object.keys(machine.implementations.actors).map((name) => [name, never]));
    walking = machine.provide({ actors } as never);
    neverSettlingCharts.set(machine, walking);
  }
  return walking;
}

/**
 * Sends one path's events to a live actor and records the states it was in and the transitions
 * XState took: what it had reached at the start and after each event. Invoked actors never settle on
 * their own: their outcomes are the path's done/error events, as generated. Time stands still, as it
 * did when the path was generated.
 */
function walkOnALiveActor(machine: AnyStateMachine, path: Path, input: unknown): Walked[] {
  const states = new Set<string>();
  const transitions = new Set<string>();
  const walking = neverSettling(machine);
  const record = (snapshot: AnyMachineSnapshot) =>
    (snapshot._nodes as AnyStateNode[]).filter((node) => node !== walking.root).forEach((node) => states.add(node.id));
  const actor = createActor(walking, {
    input,
    inspect: (event: InspectionEvent) => {
      if (event.type !== '@xstate.microstep') return;
      record(event.snapshot as AnyMachineSnapshot);
      for (const t of (event as unknown as { _transitions: TransitionLike[] })._transitions) {
        transitions.add(transitionKey({ ...t, eventType: t.eventType ?? '' }));
        // A transient state (left at once by an eventless transition) shows only as a source.
        if (t.source !== walking.root) states.add(t.source.id);
      }
    },
  }).start();
  record(actor.getSnapshot());
  const reached = () => ({ states: new Set(states), transitions: new Set(transitions) });
  const afterEach = [reached()];
  for (const step of path.steps) {
    if (step.event.type === 'xstate.init') continue;
    actor.send(step.event as never);
    afterEach.push(reached());
  }
  actor.stop();
  return afterEach;
}

export function coverageOf(machine: AnyStateMachine, runs: PathRun[]) {
  const states = new Set<string>();
  const transitions = new Set<string>();
  for (const run of runs) {
    for (const path of run.paths) {
      const walked = walk(machine, path, run);
      walked.states.forEach((id) => states.add(id));
      walked.transitions.forEach((key) => transitions.add(key));
    }
  }
  const inventory = chartInventory(machine);
  return {
    missingStates: inventory.states.filter((id) => !states.has(id)),
    missingTransitions: inventory.transitions.filter((key) => !transitions.has(key)),
  };
}

/** Paths over a chart under the given events (chartPaths.ts: the traversal every generator shares). */
export function generatePaths<T extends AnyStateMachine>(
  machine: T,
  events: readonly EventObject[],
  input?: unknown,
  options: Omit<TraversalOptions, 'listedOnly'> = {},
): PathRun & { start: AnyMachineSnapshot } {
  return traverseChart(machine, events, input, options);
}

/**
 * Picks a small set of paths that together still reach every covered state and transition: greedy set
 * cover, each time the path that reaches the most not yet reached (the shorter on a tie), since every
 * path chosen is a whole replay of the app.
 */
export function minimalCover(machine: AnyStateMachine, run: PathRun): Path[] {
  const candidates = run.paths.map((path) => {
    const walked = walk(machine, path, run);
    return { path, keys: new Set([...[...walked.states].map((id) => `state:${id}`), ...walked.transitions]) };
  });
  const seen = new Set<string>();
  const chosen: Path[] = [];
  for (;;) {
    let best: (typeof candidates)[number] | null = null;
    let bestGain = 0;
    for (const candidate of candidates) {
      let gain = 0;
      for (const key of candidate.keys) if (!seen.has(key)) gain += 1;
      if (gain > bestGain || (gain === bestGain && gain > 0 && best && candidate.path.steps.length < best.path.steps.length)) {
        best = candidate;
        bestGain = gain;
      }
    }
    if (!best) return chosen;
    chosen.push(best.path);
    best.keys.forEach((key) => seen.add(key));
  }
}

/**
 * The promises settled so far and what they set off, for a chart run with its actors stubbed:
 * setImmediate runs once the microtasks are done (a timer would wait a millisecond more at every step).
 */
export const flush = () => new Promise((resolve) => setImmediate(resolve));

type StateCheck<Ctx> = { when: (snapshot: AnyMachineSnapshot) => boolean; then: (ctx: Ctx, snapshot: AnyMachineSnapshot) => Promise<void> };

/**
 * Replays a generated path against the rendered flow: each event is performed as the user or the
 * server would, and after each step the screen must show what the chart's state means. The replay
 * keeps time as generation does (replayClock.ts): a server's wait ends at the path's own step.
 */
export async function replayPath<Ctx>(
  path: Path,
  plan: {
    start: () => Promise<Ctx>;
    events: Record<string, (ctx: Ctx, event: EventObject & Record<string, unknown>) => Promise<void>>;
    states: StateCheck<Ctx>[];
  },
): Promise<void> {
  startReplayClock();
  try {
    const ctx = await plan.start();
    for (const step of path.steps) {
      if (step.event.type !== 'xstate.init') {
        const perform = plan.events[step.event.type];
        if (!perform) throw new Error(`No executor for event ${step.event.type}`);
        await perform(ctx, step.event as EventObject & Record<string, unknown>);
      }
      const check = plan.states.find((candidate) => candidate.when(step.state));
      if (!check) throw new Error(`No check for state ${JSON.stringify(step.state.value)}`);
      await check.then(ctx, step.state);
    }
  } finally {
    stopReplayClock();
  }
}

export function describePath(path: Path): string {
  return path.steps.map((step) => `${step.event.type}→${JSON.stringify(step.state.value)}`).join(' ; ');
}
