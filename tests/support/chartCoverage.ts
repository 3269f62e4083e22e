/**
 * Model-based testing support (ARCHITECTURE.md §3): generate paths over a real chart with
 * xstate/graph, and measure which states and transitions those paths reach, so a test can
 * assert that every state and every transition of the chart is covered.
 */
import { getNextSnapshot, type AnyMachineSnapshot, type AnyStateMachine, type AnyStateNode, type EventObject } from 'xstate';
import { getSimplePaths, type StatePath } from 'xstate/graph';

type Path = StatePath<AnyMachineSnapshot, EventObject>;
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

export function chartInventory(machine: AnyStateMachine) {
  const nodes = allStateNodes(machine.root).filter((node) => node !== machine.root);
  return {
    states: nodes.map((node) => node.id),
    transitions: nodes.flatMap(transitionsOf).map(transitionKey),
  };
}

const active = (snapshot: AnyMachineSnapshot, node: AnyStateNode) =>
  (snapshot._nodes as AnyStateNode[]).includes(node);

/** The transition a step took: the first candidate for its event whose targets are all active after it. */
function takenTransitions(machine: AnyStateMachine, before: AnyMachineSnapshot, event: EventObject, after: AnyMachineSnapshot): string[] {
  const nodes = allStateNodes(machine.root);
  const candidates = nodes
    .filter((node) => active(before, node))
    .flatMap(transitionsOf)
    .filter((t) => t.eventType === event.type)
    // Deepest source first, as XState selects them.
    .sort((a, b) => b.source.id.split('.').length - a.source.id.split('.').length);
  const taken = candidates.find((t) => (t.target ?? []).every((target) => active(after, target)));
  const keys = taken ? [transitionKey(taken)] : [];
  // Eventless transitions out of states entered by this step.
  for (const node of nodes) {
    for (const t of (node.always ?? []) as TransitionLike[]) {
      if (!active(before, t.source) && (t.target ?? []).every((target) => active(after, target))) {
        keys.push(transitionKey({ ...t, eventType: '' }));
        break;
      }
    }
  }
  return keys;
}

export function coverageOf(machine: AnyStateMachine, starts: { start: AnyMachineSnapshot; paths: Path[] }[]) {
  const states = new Set<string>();
  const transitions = new Set<string>();
  const nodes = allStateNodes(machine.root);
  const visit = (snapshot: AnyMachineSnapshot) =>
    nodes.filter((node) => active(snapshot, node) && node !== machine.root).forEach((node) => states.add(node.id));
  for (const { start, paths } of starts) {
    visit(start);
    // The initial eventless transitions (e.g. restoring → active) happened while starting.
    for (const node of nodes) {
      for (const t of (node.always ?? []) as TransitionLike[]) {
        if ((t.target ?? []).every((target) => active(start, target)) && t.target?.length) {
          states.add(t.source.id);
          transitions.add(transitionKey({ ...t, eventType: '' }));
          break;
        }
      }
    }
    for (const path of paths) {
      let before = start;
      for (const step of path.steps) {
        visit(step.state);
        takenTransitions(machine, before, step.event, step.state).forEach((key) => transitions.add(key));
        before = step.state;
      }
    }
  }
  const inventory = chartInventory(machine);
  return {
    missingStates: inventory.states.filter((id) => !states.has(id)),
    missingTransitions: inventory.transitions.filter((key) => !transitions.has(key)),
  };
}

/**
 * All simple paths from the chart's start under the given events, each also extended by one more
 * step for every event its last state accepts: simple paths never revisit a state, so without that
 * step the transitions back to earlier states (retry, try again) would never be walked.
 */
export function generatePaths<T extends AnyStateMachine>(
  machine: T,
  events: readonly EventObject[],
  input?: unknown,
): { start: AnyMachineSnapshot; paths: Path[] } {
  const simple = getSimplePaths(machine, { events: events as never, input: input as never }) as unknown as Path[];
  const closing = simple.flatMap((path) =>
    events
      .filter((event) => path.state.status === 'active' && path.state.can(event))
      .map((event) => {
        const state = getNextSnapshot(machine, path.state as never, event as never) as AnyMachineSnapshot;
        return { ...path, state, steps: [...path.steps, { event, state }], weight: path.weight + 1 };
      }),
  );
  const paths = [...simple, ...closing];
  // getSimplePaths starts every path with the initial state reached by the xstate.init event.
  const start = simple[0]?.steps[0]?.state;
  if (!start) throw new Error(`${machine.id}: no paths generated`);
  return { start, paths };
}

/** Picks a small set of paths that together still reach every covered state and transition. */
export function minimalCover(machine: AnyStateMachine, start: AnyMachineSnapshot, paths: Path[]): Path[] {
  const chosen: Path[] = [];
  const seen = new Set<string>();
  const sorted = [...paths].sort((a, b) => b.steps.length - a.steps.length);
  for (const path of sorted) {
    const keys = new Set<string>();
    let before = start;
    for (const step of path.steps) {
      keys.add(`state:${(step.state._nodes as AnyStateNode[]).map((n) => n.id).join('|')}`);
      takenTransitions(machine, before, step.event, step.state).forEach((key) => keys.add(key));
      before = step.state;
    }
    if ([...keys].some((key) => !seen.has(key))) {
      chosen.push(path);
      keys.forEach((key) => seen.add(key));
    }
  }
  return chosen;
}

type StateCheck<Ctx> = { when: (snapshot: AnyMachineSnapshot) => boolean; then: (ctx: Ctx, snapshot: AnyMachineSnapshot) => Promise<void> };

/**
 * Replays a generated path against the rendered flow: each event is performed as the user or the
 * server would, and after each step the screen must show what the chart's state means.
 */
export async function replayPath<Ctx>(
  path: Path,
  plan: {
    start: () => Promise<Ctx>;
    events: Record<string, (ctx: Ctx, event: EventObject & Record<string, unknown>) => Promise<void>>;
    states: StateCheck<Ctx>[];
  },
): Promise<void> {
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
}

export function describePath(path: Path): string {
  return path.steps.map((step) => `${step.event.type}→${JSON.stringify(step.state.value)}`).join(' ; ');
}
