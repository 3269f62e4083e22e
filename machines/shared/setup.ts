/**
 * XState's `setup()`, giving only `createMachine`: the charts' one use of it. XState's own also hands
 * back every built-in action (sendTo, log, emit, enqueueActions, …), so a bundle that calls it keeps them
 * all, though the charts import the few they use from 'xstate' themselves: about 0.7 KB gzip on every
 * first screen (docs/performance.md). The machine is XState's `createMachine` with the same config and
 * implementations, as `setup().createMachine` builds it (xstate 5, src/setup.ts).
 */
import { createMachine, type setup as xstateSetup } from 'xstate';

/**
 * What a setup function gives, of its answer `createMachine` alone, its parameters kept generic:
 * TypeScript carries a generic function's type parameters through a higher-order call like this one
 * (`Parameters<typeof xstateSetup>` would fix them at their constraints and lose the charts' types).
 */
type OnlyCreateMachine = <A extends unknown[], R extends { createMachine: unknown }>(
  makeSetup: (...args: A) => R,
) => (...args: A) => Pick<R, 'createMachine'>;
declare const narrowed: OnlyCreateMachine;
declare const xstateSetupType: typeof xstateSetup;
/** Never called: it only names the type of `setup` below, XState's signature with the narrower answer. */
const _typeOfSetup = () => narrowed(xstateSetupType);

type Implementations = NonNullable<Parameters<typeof createMachine>[1]> & { schemas?: unknown };

export const setup = (({ schemas, actors, actions, guards, delays }: Implementations) => ({
  createMachine: (config: Parameters<typeof createMachine>[0]) => createMachine({ ...config, schemas }, { actors, actions, guards, delays }),
})) as unknown as ReturnType<typeof _typeOfSetup>;
