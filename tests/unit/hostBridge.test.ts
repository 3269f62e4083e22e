/**
 * The host bridge (src/shared/host/bridge.ts) in jsdom: a fake window (an EventTarget with a location and
 * a parent whose postMessage is recorded) receives MessageEvents as the browser would deliver them.
 * What is checked is what another window could observe or exploit: where our messages go, which
 * messages we act on, and what the app's code gets back.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { connectHostBridge, HostUnavailableError, hostReplyTimeoutMs, type HostBridge } from '../../src/shared/host/bridge.ts';
import { hostProtocol, type QueryMessage } from '../../contract/hostProtocol.ts';

const ownOrigin = 'http://localhost:8080';
const companion = 'https://companion.example.test';
const companionStaging = 'https://staging.companion.example.test';
const processor = 'https://processor.example.test';
const stranger = 'https://evil.example.test';

type FakeParent = { postMessage: ReturnType<typeof vi.fn> };

function setup(options: { parentOrigin?: string | null; timeoutMs?: number } = {}) {
  const parent: FakeParent = { postMessage: vi.fn() };
  const self = Object.assign(new EventTarget(), { location: { origin: ownOrigin }, parent });
  const onUnknownOrigin = vi.fn();
  const onMalformed = vi.fn();
  const bridge = connectHostBridge(self as unknown as Window, {
    parentOrigin: options.parentOrigin === undefined ? companion : options.parentOrigin,
    hostOrigins: [companion, companionStaging],
    otherTrustedOrigins: [processor],
    onUnknownOrigin,
    onMalformed,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  });
  /** Delivers a message to our window as the browser would. */
  const deliver = (data: unknown, origin: string, source: unknown = parent) =>
    self.dispatchEvent(new MessageEvent('message', { data, origin, source: source as MessageEventSource }));
  /** The [message, targetOrigin] pairs posted to the parent so far. */
  const posted = () => parent.postMessage.mock.calls as [unknown, string][];
  /** The id of the last query posted. */
  const lastQueryId = () => {
    const last = posted().at(-1);
    if (!last) throw new Error('Nothing was posted');
    return (last[0] as QueryMessage).id;
  };
  const reply = (replyTo: string, payload: unknown, origin = companion, source: unknown = parent) =>
    deliver({ protocol: hostProtocol, type: 'reply', replyTo, payload }, origin, source);
  return { parent, self, bridge, onUnknownOrigin, onMalformed, deliver, posted, lastQueryId, reply };
}

/** Whether a promise has settled, after letting pending microtasks run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  await Promise.resolve();
  await Promise.resolve();
  return done;
}

let bridges: HostBridge[] = [];
afterEach(() => {
  bridges.forEach((bridge) => bridge.close());
  bridges = [];
  vi.useRealTimers();
});
const track = <T extends { bridge: HostBridge }>(value: T) => {
  bridges.push(value.bridge);
  return value;
};

describe('host bridge: questions to a known parent', () => {
  it('posts a query to exactly the parent origin, never "*"', () => {
    const { bridge, posted } = track(setup());
    void bridge.ask('deviceId.get').catch(() => {});
    expect(posted()).toHaveLength(1);
    const [message, target] = posted()[0]!;
    expect(target).toBe(companion);
    expect(message).toEqual({ protocol: hostProtocol, type: 'deviceId.get', id: expect.any(String) });
  });

  it('gives each question its own id', () => {
    const { bridge, posted } = track(setup());
    void bridge.ask('deviceId.get').catch(() => {});
    void bridge.ask('deviceId.get').catch(() => {});
    const ids = posted().map(([message]) => (message as QueryMessage).id);
    expect(new Set(ids).size).toBe(2);
  });

  it('a reply from the parent resolves the question with its payload', async () => {
    const { bridge, reply, lastQueryId, onMalformed, onUnknownOrigin } = track(setup());
    const answer = bridge.ask('deviceId.get');
    reply(lastQueryId(), { deviceId: 'device-7' });
    await expect(answer).resolves.toEqual({ deviceId: 'device-7' });
    expect(onMalformed).not.toHaveBeenCalled();
    expect(onUnknownOrigin).not.toHaveBeenCalled();
  });

  it('replies are matched by id, whatever order they come in', async () => {
    const { bridge, reply, posted } = track(setup());
    const device = bridge.ask('deviceId.get');
    const uuid = bridge.ask('parentApp.uuid.get');
    const [deviceId, uuidId] = posted().map(([message]) => (message as QueryMessage).id);
    reply(uuidId!, { uuid: 'user-1' });
    reply(deviceId!, { deviceId: 'device-1' });
    await expect(device).resolves.toEqual({ deviceId: 'device-1' });
    await expect(uuid).resolves.toEqual({ uuid: 'user-1' });
  });

  it('a reply whose payload does not fit the question rejects it and is reported as malformed', async () => {
    const { bridge, reply, lastQueryId, onMalformed } = track(setup());
    const answer = bridge.ask('notificationPermission.get');
    reply(lastQueryId(), { permission: 'MAYBE' });
    await expect(answer).rejects.toSatisfy(
      (error) => error instanceof HostUnavailableError && error.query === 'notificationPermission.get' && /malformed/.test(error.message),
    );
    expect(onMalformed).toHaveBeenCalledExactlyOnceWith(companion);
  });

  it("a reply with an error (the host's 'unsupported') rejects the question with that reason", async () => {
    const { bridge, deliver, lastQueryId, onMalformed } = track(setup());
    const answer = bridge.ask('parentApp.ebtLink.get');
    deliver({ protocol: hostProtocol, type: 'reply', replyTo: lastQueryId(), error: 'unsupported' }, companion);
    await expect(answer).rejects.toSatisfy((error) => error instanceof HostUnavailableError && /unsupported/.test(error.message));
    expect(onMalformed).not.toHaveBeenCalled();
  });

  it('a message from the parent that is not a protocol message is reported as malformed and answers nothing', async () => {
    const { bridge, deliver, onMalformed } = track(setup());
    const answer = bridge.ask('deviceId.get');
    deliver('hello', companion);
    deliver({ protocol: hostProtocol, type: 'reply' }, companion);
    expect(onMalformed).toHaveBeenCalledTimes(2);
    expect(onMalformed).toHaveBeenCalledWith(companion);
    expect(await settled(answer)).toBe(false);
    answer.catch(() => {});
  });

  it('a reply to an id nobody asked is ignored', async () => {
    const { bridge, reply, onMalformed } = track(setup());
    const answer = bridge.ask('deviceId.get');
    reply('not-a-question-we-asked', { deviceId: 'device-9' });
    expect(await settled(answer)).toBe(false);
    expect(onMalformed).not.toHaveBeenCalled();
    answer.catch(() => {});
  });

  it('a second reply to an already answered question changes nothing', async () => {
    const { bridge, reply, lastQueryId } = track(setup());
    const answer = bridge.ask('deviceId.get');
    const id = lastQueryId();
    reply(id, { deviceId: 'first' });
    reply(id, { deviceId: 'second' });
    await expect(answer).resolves.toEqual({ deviceId: 'first' });
  });

  it('a state.load reply whose state JSON cannot measure (a cycle, which structured clone delivers) is rejected as malformed at once', async () => {
    vi.useFakeTimers();
    const { bridge, reply, lastQueryId, onMalformed } = track(setup());
    const answer = bridge.ask('state.load');
    const reason = answer.then(
      () => 'resolved',
      (error: Error) => error.message,
    );
    const state: Record<string, unknown> = { locale: 'es' };
    state.self = state;
    reply(lastQueryId(), { state });
    await vi.advanceTimersByTimeAsync(0);
    const answeredAtOnce = await settled(answer);
    expect(onMalformed.mock.calls).toEqual([[companion]]);
    expect(answeredAtOnce).toBe(true);
    await vi.advanceTimersByTimeAsync(hostReplyTimeoutMs);
    expect(await reason).toMatch(/malformed/);
  });
});

describe('host bridge: timeout', () => {
  it(`a question the host does not answer in ${hostReplyTimeoutMs} ms rejects with HostUnavailableError`, async () => {
    vi.useFakeTimers();
    expect(hostReplyTimeoutMs).toBe(3000);
    const { bridge } = track(setup());
    const answer = bridge.ask('parentApp.uuid.get');
    const outcome = expect(answer).rejects.toSatisfy(
      (error) => error instanceof HostUnavailableError && error.query === 'parentApp.uuid.get' && /timeout/.test(error.message),
    );
    await vi.advanceTimersByTimeAsync(hostReplyTimeoutMs - 1);
    expect(await settled(answer)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await outcome;
  });

  // A token the host fetches over a slow network, a person deciding on notifications: not 3 s.
  it.each(['parentApp.accessToken.get', 'notificationPermission.request'] as const)('%s waits 120 s for its answer', async (type) => {
    vi.useFakeTimers();
    const { bridge } = track(setup({ timeoutMs: 50 }));
    const answer = bridge.ask(type);
    const outcome = expect(answer).rejects.toSatisfy((error) => error instanceof HostUnavailableError && /timeout/.test(error.message));
    await vi.advanceTimersByTimeAsync(120_000 - 1);
    expect(await settled(answer)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await outcome;
  });

  it('a reply after the timeout is ignored', async () => {
    vi.useFakeTimers();
    const { bridge, reply, lastQueryId, onMalformed } = track(setup());
    const answer = bridge.ask('deviceId.get');
    const outcome = expect(answer).rejects.toBeInstanceOf(HostUnavailableError);
    const id = lastQueryId();
    await vi.advanceTimersByTimeAsync(hostReplyTimeoutMs);
    await outcome;
    reply(id, { deviceId: 'too-late' });
    expect(onMalformed).not.toHaveBeenCalled();
  });

  it('an answered question does not time out later', async () => {
    vi.useFakeTimers();
    const { bridge, reply, lastQueryId } = track(setup());
    const answer = bridge.ask('deviceId.get');
    reply(lastQueryId(), { deviceId: 'device-1' });
    await vi.advanceTimersByTimeAsync(hostReplyTimeoutMs * 2);
    await expect(answer).resolves.toEqual({ deviceId: 'device-1' });
  });

  it('honours a custom timeout', async () => {
    vi.useFakeTimers();
    const { bridge } = track(setup({ timeoutMs: 50 }));
    const answer = bridge.ask('deviceId.get');
    const outcome = expect(answer).rejects.toBeInstanceOf(HostUnavailableError);
    await vi.advanceTimersByTimeAsync(50);
    await outcome;
  });
});

describe('host bridge: the origin gate', () => {
  it('a message from an unknown origin is ignored and reported once per origin, however many it sends', async () => {
    const { bridge, deliver, reply, lastQueryId, onUnknownOrigin, onMalformed } = track(setup());
    const answer = bridge.ask('deviceId.get');
    const id = lastQueryId();
    const other = 'https://other.example.test';
    for (let i = 0; i < 5; i++) reply(id, { deviceId: `forged-${i}` }, stranger);
    deliver('junk', stranger);
    reply(id, { deviceId: 'forged' }, other);
    expect(onUnknownOrigin.mock.calls).toEqual([[stranger], [other]]);
    expect(onMalformed).not.toHaveBeenCalled();
    expect(await settled(answer)).toBe(false);
    reply(id, { deviceId: 'real' });
    await expect(answer).resolves.toEqual({ deviceId: 'real' });
  });

  it('a forged reply from an unknown origin that claims to be from the parent window is still ignored', async () => {
    const { bridge, reply, lastQueryId, onUnknownOrigin } = track(setup());
    const answer = bridge.ask('parentApp.accessToken.get');
    reply(lastQueryId(), { accessToken: 'stolen' }, stranger);
    expect(onUnknownOrigin).toHaveBeenCalledExactlyOnceWith(stranger);
    expect(await settled(answer)).toBe(false);
    answer.catch(() => {});
  });

  it('origins are compared exactly: a lookalike of the parent origin is unknown', async () => {
    const { bridge, reply, lastQueryId, onUnknownOrigin } = track(setup());
    const answer = bridge.ask('deviceId.get');
    const id = lastQueryId();
    for (const lookalike of [`${companion}:443`, companion.replace('https', 'http'), `${companion}.evil.test`, 'https://COMPANION.example.test']) {
      reply(id, { deviceId: 'forged' }, lookalike);
    }
    expect(onUnknownOrigin).toHaveBeenCalledTimes(4);
    expect(await settled(answer)).toBe(false);
    answer.catch(() => {});
  });

  it('a message from an allowlisted host origin but another window than the parent is ignored', async () => {
    const { bridge, reply, lastQueryId, onUnknownOrigin, onMalformed } = track(setup());
    const answer = bridge.ask('deviceId.get');
    const popup = { postMessage: vi.fn() };
    reply(lastQueryId(), { deviceId: 'from-popup' }, companion, popup);
    reply(lastQueryId(), { deviceId: 'no-source' }, companion, null);
    expect(await settled(answer)).toBe(false);
    expect(onUnknownOrigin).not.toHaveBeenCalled();
    expect(onMalformed).not.toHaveBeenCalled();
    answer.catch(() => {});
  });

  it('once the parent origin is known, another allowlisted host origin is not listened to, even from the parent window', async () => {
    const { bridge, reply, lastQueryId } = track(setup());
    const answer = bridge.ask('deviceId.get');
    reply(lastQueryId(), { deviceId: 'staging' }, companionStaging);
    expect(await settled(answer)).toBe(false);
    answer.catch(() => {});
  });

  it('messages from our own origin are ignored silently', async () => {
    const { bridge, reply, lastQueryId, onUnknownOrigin, onMalformed } = track(setup());
    const answer = bridge.ask('deviceId.get');
    reply(lastQueryId(), { deviceId: 'self' }, ownOrigin);
    expect(await settled(answer)).toBe(false);
    expect(onUnknownOrigin).not.toHaveBeenCalled();
    expect(onMalformed).not.toHaveBeenCalled();
    answer.catch(() => {});
  });

  it('messages from trusted non-host origins (processor, account linking) are neither host messages nor warnings', async () => {
    const { bridge, reply, deliver, lastQueryId, onUnknownOrigin, onMalformed } = track(setup());
    const push = vi.fn();
    bridge.onPush(push);
    const answer = bridge.ask('deviceId.get');
    reply(lastQueryId(), { deviceId: 'processor' }, processor);
    deliver({ protocol: hostProtocol, type: 'notificationPermission.changed', payload: { permission: 'ENABLED' } }, processor);
    expect(await settled(answer)).toBe(false);
    expect(push).not.toHaveBeenCalled();
    expect(onUnknownOrigin).not.toHaveBeenCalled();
    expect(onMalformed).not.toHaveBeenCalled();
    answer.catch(() => {});
  });

  it('a parent origin that is not allowlisted (a stale referrer) is never written to; the listed hosts are asked instead', async () => {
    const { bridge, posted } = track(setup({ parentOrigin: stranger }));
    void bridge.ask('state.load').catch(() => {});
    bridge.tell('state.save', { state: { locale: 'es' } });
    expect(posted().map(([, target]) => target)).toEqual([companion, companionStaging]);
    expect(posted().some(([, target]) => target === stranger || target === '*')).toBe(false);
    expect(bridge.parentOrigin()).toBeNull();
  });
});

describe('host bridge: unknown parent origin', () => {
  it('the first question goes to every allowlisted host origin, each with its exact origin', () => {
    const { bridge, posted } = track(setup({ parentOrigin: null }));
    void bridge.ask('state.load').catch(() => {});
    expect(posted().map(([, target]) => target)).toEqual([companion, companionStaging]);
    const [first, second] = posted().map(([message]) => message);
    expect(first).toEqual(second);
    expect(posted().some(([, target]) => target === '*')).toBe(false);
    expect(bridge.parentOrigin()).toBeNull();
  });

  it('after one host replies, later questions and notices go only to that origin', async () => {
    const { bridge, posted, reply, lastQueryId } = track(setup({ parentOrigin: null }));
    const answer = bridge.ask('state.load');
    reply(lastQueryId(), { state: null }, companionStaging);
    await expect(answer).resolves.toEqual({ state: null });
    expect(bridge.parentOrigin()).toBe(companionStaging);

    const before = posted().length;
    void bridge.ask('deviceId.get').catch(() => {});
    bridge.tell('url.open', { url: 'https://example.test/help' });
    expect(posted().slice(before)).toEqual([
      [{ protocol: hostProtocol, type: 'deviceId.get', id: expect.any(String) }, companionStaging],
      [{ protocol: hostProtocol, type: 'url.open', payload: { url: 'https://example.test/help' } }, companionStaging],
    ]);
  });

  it('after one host replies, the other allowlisted host origin is no longer listened to', async () => {
    const { bridge, reply, lastQueryId } = track(setup({ parentOrigin: null }));
    const first = bridge.ask('state.load');
    reply(lastQueryId(), { state: null }, companion);
    await first;
    const second = bridge.ask('deviceId.get');
    reply(lastQueryId(), { deviceId: 'staging' }, companionStaging);
    expect(await settled(second)).toBe(false);
    second.catch(() => {});
  });

  it('tell sends nothing before the parent has answered once', async () => {
    const { bridge, posted, reply, lastQueryId } = track(setup({ parentOrigin: null }));
    bridge.tell('state.save', { state: { locale: 'es' } });
    expect(posted()).toEqual([]);
    const answer = bridge.ask('state.load');
    bridge.tell('clipboard.copy', { text: 'x' });
    expect(posted().every(([message]) => (message as { type: string }).type === 'state.load')).toBe(true);
    reply(lastQueryId(), { state: null }, companion);
    await answer;
    bridge.tell('state.save', { state: { locale: 'es' } });
    expect(posted().at(-1)).toEqual([{ protocol: hostProtocol, type: 'state.save', payload: { state: { locale: 'es' } } }, companion]);
  });

  it('a reply with an error also fixes the parent origin (the parent has proved who it is)', async () => {
    const { bridge, deliver, lastQueryId } = track(setup({ parentOrigin: null }));
    const answer = bridge.ask('parentApp.ebtLink.get');
    deliver({ protocol: hostProtocol, type: 'reply', replyTo: lastQueryId(), error: 'unsupported' }, companion);
    await expect(answer).rejects.toBeInstanceOf(HostUnavailableError);
    expect(bridge.parentOrigin()).toBe(companion);
  });
});

describe('host bridge: notices and pushes', () => {
  it('tell sends right away to a known, allowlisted parent origin, with the exact origin', () => {
    const { bridge, posted } = track(setup());
    expect(bridge.parentOrigin()).toBe(companion);
    bridge.tell('hostRoute.return', { route: 'benefits' });
    expect(posted()).toEqual([[{ protocol: hostProtocol, type: 'hostRoute.return', payload: { route: 'benefits' } }, companion]]);
  });

  it('a notificationPermission.changed push reaches every onPush listener', () => {
    const { bridge, deliver } = track(setup());
    const first = vi.fn();
    const second = vi.fn();
    bridge.onPush(first);
    bridge.onPush(second);
    const push = { protocol: hostProtocol, type: 'notificationPermission.changed', payload: { permission: 'DISABLED' } };
    deliver(push, companion);
    expect(first).toHaveBeenCalledExactlyOnceWith(push);
    expect(second).toHaveBeenCalledExactlyOnceWith(push);
  });

  it('a listener that unsubscribed hears no more pushes', () => {
    const { bridge, deliver } = track(setup());
    const listener = vi.fn();
    const unsubscribe = bridge.onPush(listener);
    unsubscribe();
    deliver({ protocol: hostProtocol, type: 'notificationPermission.changed', payload: { permission: 'ENABLED' } }, companion);
    expect(listener).not.toHaveBeenCalled();
  });

  it('a push with a bad permission is reported as malformed and reaches no listener', () => {
    const { bridge, deliver, onMalformed } = track(setup());
    const listener = vi.fn();
    bridge.onPush(listener);
    deliver({ protocol: hostProtocol, type: 'notificationPermission.changed', payload: { permission: 'MAYBE' } }, companion);
    expect(listener).not.toHaveBeenCalled();
    expect(onMalformed).toHaveBeenCalledExactlyOnceWith(companion);
  });

  it('a push from an unknown origin or another window reaches no listener', () => {
    const { bridge, deliver } = track(setup());
    const listener = vi.fn();
    bridge.onPush(listener);
    const push = { protocol: hostProtocol, type: 'notificationPermission.changed', payload: { permission: 'ENABLED' } };
    deliver(push, stranger);
    deliver(push, companion, { postMessage: vi.fn() });
    expect(listener).not.toHaveBeenCalled();
  });
});

describe('host bridge: close', () => {
  it('after close(), replies and pushes are no longer heard', async () => {
    const { bridge, reply, deliver, lastQueryId, onUnknownOrigin, onMalformed } = setup();
    const listener = vi.fn();
    bridge.onPush(listener);
    const answer = bridge.ask('deviceId.get');
    bridge.close();
    reply(lastQueryId(), { deviceId: 'after-close' });
    deliver({ protocol: hostProtocol, type: 'notificationPermission.changed', payload: { permission: 'ENABLED' } }, companion);
    deliver('junk', stranger);
    expect(await settled(answer)).toBe(false);
    expect(listener).not.toHaveBeenCalled();
    expect(onUnknownOrigin).not.toHaveBeenCalled();
    expect(onMalformed).not.toHaveBeenCalled();
    answer.catch(() => {});
  });
});
