/**
 * Generated path tests over the host chart (machines/host/host.ts): start-up inside the companion app.
 * Actor outcomes are environment events; each path is replayed on a live actor whose actors are
 * deferred promises the test settles as the path says, and after every step the live state must be
 * the path's state and keep what that state promises, computed independently from the events so far.
 */
import { describe, expect, it } from 'vitest';
import {
  createActor,
  fromPromise,
  type AnyActorRef,
  type AnyMachineSnapshot,
  type AnyStateNode,
  type EventObject,
} from 'xstate';
import { hostMachine, ProvidersSignInRefused, type HostConnection, type HostContext } from '../../machines/host/host.ts';
import type { SessionTokens } from '../../contract/shared/answers.ts';
import type { NotificationPermission } from '../../contract/hostProtocol.ts';
import { coverageOf, describePath, flush, generatePaths } from '../support/chartCoverage.ts';


/** The id XState gives the invoke of a state (none is named in the chart, so it is generated). */
function invokeId(state: 'connecting' | 'signingIn' | 'requestingPermission'): string {
  const node = (hostMachine.root.states as Record<string, AnyStateNode>)[state]!;
  const [invoke] = node.invoke as { id: string }[];
  if (!invoke) throw new Error(`${state} invokes nothing`);
  return invoke.id;
}
const ids = { connect: invokeId('connecting'), signIn: invokeId('signingIn'), request: invokeId('requestingPermission') };
const done = (id: string) => `xstate.done.actor.${id}`;
const error = (id: string) => `xstate.error.actor.${id}`;

function connection(uuid: string | null): HostConnection {
  return {
    savedState: { locale: 'es' },
    deviceId: 'device-from-host',
    notificationPermission: 'NOT_YET_REQUESTED',
    parentApp: {
      uuid,
      authEmail: uuid ? 'ana@example.test' : null,
      authSource: uuid ? 'google' : null,
      eligibleBenefits: ['EBT'],
      language: null,
      ebtLink: { ebtaccountId: 'ebt-1', uid: null },
    },
  };
}
const providersUser = connection('5b1c1c1e-0000-4000-8000-000000000001');
const otherUser = connection(null);
const tokens: SessionTokens = { access: 'access-from-sign-in', refresh: 'refresh-from-sign-in', isInternal: true };

const events: (EventObject & Record<string, unknown>)[] = [
  { type: done(ids.connect), output: providersUser },
  { type: done(ids.connect), output: otherUser },
  { type: error(ids.connect), error: new Error('The host did not answer state.load: timeout') },
  { type: done(ids.signIn), output: tokens },
  { type: error(ids.signIn), error: new ProvidersSignInRefused('statusCode 100') },
  { type: error(ids.signIn), error: new Error('No statusCode') },
  { type: 'host.notificationPermissionChanged', permission: 'ENABLED' },
  { type: 'user.requestNotificationPermission' },
  { type: done(ids.request), output: 'DISABLED' },
  { type: error(ids.request), error: new Error('The host did not answer notificationPermission.request: unsupported') },
  { type: 'user.retrySignIn' },
  { type: 'session.signedIn' },
];

const { paths } = generatePaths(hostMachine, events);

// --- the replay ---------------------------------------------------------------------------------

type Call<I, O> = { input: I; resolve: (value: O) => void; reject: (error: unknown) => void };
type Calls = {
  connectToHost: Call<unknown, HostConnection>[];
  providersSignIn: Call<{ connection: HostConnection }, SessionTokens>[];
  requestNotificationPermission: Call<unknown, NotificationPermission>[];
};

function startHost() {
  const calls: Calls = { connectToHost: [], providersSignIn: [], requestNotificationPermission: [] };
  const deferred = <K extends keyof Calls>(name: K) =>
    fromPromise(
      ({ input }: { input: unknown }) =>
        new Promise((resolve, reject) => (calls[name] as Call<unknown, unknown>[]).push({ input, resolve, reject })),
    );
  const actor = createActor(
    hostMachine.provide({
      actors: {
        connectToHost: deferred('connectToHost') as never,
        providersSignIn: deferred('providersSignIn') as never,
        requestNotificationPermission: deferred('requestNotificationPermission') as never,
      },
    }),
  ).start();
  return { actor, calls };
}

/** The one call of an actor the path now settles: it must have been started and be the latest. */
function latest<T>(list: T[], what: string): T {
  const call = list.at(-1);
  if (!call) throw new Error(`${what} was never started`);
  return call;
}

/** What the events so far say the host context must be, worked out without the chart. */
type Expected = {
  connection: HostConnection | null;
  permission: NotificationPermission;
  tokens: SessionTokens | null;
  signInProblem: HostContext['signInProblem'];
  permissionRequests: number;
  /** How many times the companion token was exchanged: at start-up, and at each retry. */
  signIns: number;
};

/** `from`: the state the event arrived in. */
function expectedAfter(previous: Expected, event: EventObject & Record<string, unknown>, from: string): Expected {
  switch (event.type) {
    case done(ids.connect): {
      const output = event.output as HostConnection;
      return { ...previous, connection: output, permission: output.notificationPermission, signIns: output.parentApp.uuid ? 1 : 0 };
    }
    // Only in ready, and only after a sign-in that got no answer (a refusal is not tried again).
    case 'user.retrySignIn':
      return from === 'ready' && previous.signInProblem === 'failed' ? { ...previous, signInProblem: null, signIns: previous.signIns + 1 } : previous;
    // In ready, or while a sign-in is under way (its outcome is dropped).
    case 'session.signedIn':
      return from === 'ready' || from === 'signingIn' ? { ...previous, signInProblem: null } : previous;
    case done(ids.signIn):
      return { ...previous, tokens: event.output as SessionTokens };
    case error(ids.signIn):
      return { ...previous, signInProblem: event.error instanceof ProvidersSignInRefused ? 'refused' : 'failed' };
    case 'host.notificationPermissionChanged':
      return { ...previous, permission: event.permission as NotificationPermission };
    case 'user.requestNotificationPermission':
      return { ...previous, permissionRequests: previous.permissionRequests + 1 };
    case done(ids.request):
      return { ...previous, permission: event.output as NotificationPermission };
    default:
      return previous;
  }
}

const startedStates = ['ready', 'requestingPermission', 'unavailable'];

function checkState(snapshot: AnyMachineSnapshot, calls: Calls, expected: Expected) {
  const context = snapshot.context as HostContext;
  const state = snapshot.value as string;
  // start-up (startEmbedded) waits for this tag: only once the host has answered or failed.
  expect(snapshot.hasTag('started')).toBe(startedStates.includes(state));
  expect(context.notificationPermission).toBe(expected.permission);
  expect(calls.connectToHost).toHaveLength(1);
  expect(calls.requestNotificationPermission).toHaveLength(expected.permissionRequests);

  if (state === 'connecting' || state === 'unavailable') {
    expect([context.connection, context.tokens, context.signInProblem]).toEqual([null, null, null]);
    expect(context.notificationPermission).toBe('UNKNOWN');
    expect(calls.providersSignIn).toHaveLength(0);
    return;
  }
  expect(context.connection).toEqual(expected.connection);
  const isProvidersUser = Boolean(expected.connection?.parentApp.uuid);
  expect(calls.providersSignIn).toHaveLength(expected.signIns);
  if (state === 'signingIn') {
    expect(isProvidersUser).toBe(true);
    // The companion token is exchanged for this connection's user.
    expect(calls.providersSignIn.at(-1)!.input).toEqual({ connection: expected.connection });
    expect([context.tokens, context.signInProblem]).toEqual([null, null]);
    return;
  }
  // ready or requestingPermission: start-up is over.
  if (!isProvidersUser) {
    expect([context.tokens, context.signInProblem]).toEqual([null, null]);
  } else if (expected.tokens) {
    expect(context.tokens).toEqual(tokens);
    expect(context.signInProblem).toBeNull();
  } else {
    expect(context.tokens).toBeNull();
    expect(context.signInProblem).toBe(expected.signInProblem);
  }
}

describe('host chart', () => {
  it('generated paths reach every state and transition ', () => {
    expect(coverageOf(hostMachine, [{ paths }])).toEqual({ missingStates: [], missingTransitions: [] });
  });

  it('the exact coverage measure can fail: without the non-providers user and the plain sign-in failure, their transitions are missing', () => {
    const plainSignInFailure = (event: (typeof events)[number]) =>
      event.type === error(ids.signIn) && !(event.error instanceof ProvidersSignInRefused);
    const fewer = events.filter((event) => event.output !== otherUser && !plainSignInFailure(event));
    expect(coverageOf(hostMachine, [generatePaths(hostMachine, fewer)])).toEqual({
      missingStates: [],
      missingTransitions: [
        'host.checkingUser --always--> host.ready',
        `host.signingIn --${error(ids.signIn)}--> host.ready`,
        // Only a sign-in that got no answer is tried again.
        'host.ready --user.retrySignIn[signInFailed]--> host.signingIn',
      ],
    });
  });

  it('paths cover both kinds of user and all three sign-in outcomes', () => {
    const outcomes = new Set(
      paths.flatMap((path) =>
        path.steps.filter((step) => step.state.matches('ready')).map((step) => {
          const { connection: c, tokens: t, signInProblem } = step.state.context as HostContext;
          return c?.parentApp.uuid ? (t ? 'signed in' : (signInProblem ?? 'signed in another way')) : 'not a providers user';
        }),
      ),
    );
    expect([...outcomes].sort()).toEqual(['failed', 'not a providers user', 'refused', 'signed in', 'signed in another way']);
  });

  it.each(paths.map((path) => [describePath(path), path] as const))('path %s', async (_name, path) => {
    const { actor, calls } = startHost();
    let expected: Expected = { connection: null, permission: 'UNKNOWN', tokens: null, signInProblem: null, permissionRequests: 0, signIns: 0 };
    for (const step of path.steps) {
      const from = actor.getSnapshot().value as string;
      const event = step.event as EventObject & Record<string, unknown>;
      if (event.type === done(ids.connect)) latest(calls.connectToHost, 'connectToHost').resolve(event.output as HostConnection);
      else if (event.type === error(ids.connect)) latest(calls.connectToHost, 'connectToHost').reject(event.error);
      else if (event.type === done(ids.signIn)) latest(calls.providersSignIn, 'providersSignIn').resolve(event.output as SessionTokens);
      else if (event.type === error(ids.signIn)) latest(calls.providersSignIn, 'providersSignIn').reject(event.error);
      else if (event.type === done(ids.request))
        latest(calls.requestNotificationPermission, 'requestNotificationPermission').resolve(event.output as NotificationPermission);
      else if (event.type === error(ids.request)) latest(calls.requestNotificationPermission, 'requestNotificationPermission').reject(event.error);
      else if (event.type !== 'xstate.init') actor.send(event as never);
      await flush();
      expected = expectedAfter(expected, event, from);
      expect(actor.getSnapshot().value).toEqual(step.state.value);
      checkState(actor.getSnapshot(), calls, expected);
    }
    actor.stop();
  });

  it('unavailable is the end: later pushes and permission requests change nothing and start nothing', async () => {
    const { actor, calls } = startHost();
    latest(calls.connectToHost, 'connectToHost').reject(new Error('timeout'));
    await flush();
    actor.send({ type: 'host.notificationPermissionChanged', permission: 'ENABLED' });
    actor.send({ type: 'user.requestNotificationPermission' });
    await flush();
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toBe('unavailable');
    expect(snapshot.context.notificationPermission).toBe('UNKNOWN');
    expect(calls.requestNotificationPermission).toHaveLength(0);
    actor.stop();
  });

  it('a failed permission request keeps the permission the host last reported', async () => {
    const { actor, calls } = startHost();
    latest(calls.connectToHost, 'connectToHost').resolve(otherUser);
    await flush();
    actor.send({ type: 'host.notificationPermissionChanged', permission: 'DISABLED' });
    actor.send({ type: 'user.requestNotificationPermission' });
    latest(calls.requestNotificationPermission, 'requestNotificationPermission').reject(new Error('unsupported'));
    await flush();
    expect(actor.getSnapshot().value).toBe('ready');
    expect(actor.getSnapshot().context.notificationPermission).toBe('DISABLED');
    actor.stop();
  });

  it('connecting ignores pushes until the host has connected (the permission comes with the connection)', async () => {
    const { actor, calls } = startHost();
    actor.send({ type: 'host.notificationPermissionChanged', permission: 'ENABLED' });
    expect(actor.getSnapshot().context.notificationPermission).toBe('UNKNOWN');
    latest(calls.connectToHost, 'connectToHost').resolve(otherUser);
    await flush();
    expect(actor.getSnapshot().context.notificationPermission).toBe('NOT_YET_REQUESTED');
    actor.stop();
  });

  it('a sign-in that settles after the chart was stopped changes nothing', async () => {
    const { actor, calls } = startHost();
    latest(calls.connectToHost, 'connectToHost').resolve(providersUser);
    await flush();
    expect(actor.getSnapshot().value).toBe('signingIn');
    expect(Object.keys(actor.getSnapshot().children as Record<string, AnyActorRef>)).toEqual([ids.signIn]);
    actor.stop();
    latest(calls.providersSignIn, 'providersSignIn').resolve(tokens);
    await flush();
    expect(actor.getSnapshot().status).toBe('stopped');
    expect(actor.getSnapshot().context.tokens).toBeNull();
  });
});
