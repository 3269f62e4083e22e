/** Analytics batching: when events are sent, in what batches, and that failures stay invisible. */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AnalyticsBatch } from '../../contract/analytics/types.ts';
import { createAnalytics, flushDelayMs, maxBatchSize, sessionTimeoutMs } from '../../src/app/analytics.ts';
import { loadRedaction } from '../../src/app/reportRedaction.ts';

const at = '2026-11-20T15:00:00.000Z';

function setup(send: (batch: AnalyticsBatch) => Promise<void> = async () => {}, now = () => new Date(at)) {
  const transport = { send: vi.fn(send), beacon: vi.fn((_batch: AnalyticsBatch) => {}) };
  const analytics = createAnalytics(transport, now);
  return { transport, analytics };
}

const names = (batch: AnalyticsBatch | undefined) => (batch?.events ?? []).map((event) => event.name);
const sessionId = expect.any(String) as string;

describe('analytics', () => {
  // The redaction rules are loaded apart from the first screen (src/app/reportRedaction.ts); here they are in.
  beforeAll(() => loadRedaction());
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('uses a 2 s delay and batches of at most 50', () => {
    expect(flushDelayMs).toBe(2000);
    expect(maxBatchSize).toBe(50);
  });

  it('sends queued events in one call once the flush delay has passed', async () => {
    const { transport, analytics } = setup();
    analytics.track('home.viewed');
    await vi.advanceTimersByTimeAsync(500);
    analytics.track('card.frozen', { cardId: 'c1' });
    analytics.track('signOut');
    await vi.advanceTimersByTimeAsync(flushDelayMs - 501);
    expect(transport.send).not.toHaveBeenCalled();

    // The delay counts from the first queued event; later events do not postpone it.
    await vi.advanceTimersByTimeAsync(1);
    expect(transport.send).toHaveBeenCalledTimes(1);
    expect(transport.send.mock.calls[0]![0]).toEqual({
      events: [
        { name: 'home.viewed', at, sessionId, properties: {} },
        { name: 'card.frozen', at, sessionId, properties: { cardId: 'c1' } },
        { name: 'signOut', at, sessionId, properties: {} },
      ],
    });

    await vi.advanceTimersByTimeAsync(flushDelayMs * 3);
    expect(transport.send).toHaveBeenCalledTimes(1);
    expect(transport.beacon).not.toHaveBeenCalled();
  });

  it('sends nothing when nothing was tracked', async () => {
    const { transport } = setup();
    await vi.advanceTimersByTimeAsync(flushDelayMs * 2);
    expect(transport.send).not.toHaveBeenCalled();
  });

  it('sends 50 events at once in one batch, and a 51st in the next batch', async () => {
    const { transport, analytics } = setup();
    for (let i = 1; i <= 50; i++) analytics.track(`e${i}`);
    expect(transport.send).toHaveBeenCalledTimes(1);
    expect(names(transport.send.mock.calls[0]![0])).toEqual(Array.from({ length: 50 }, (_, i) => `e${i + 1}`));

    analytics.track('e51');
    await vi.advanceTimersByTimeAsync(flushDelayMs);
    expect(transport.send).toHaveBeenCalledTimes(2);
    expect(names(transport.send.mock.calls[1]![0])).toEqual(['e51']);
  });

  it('after a full batch has gone, the next event waits for the flush delay again', async () => {
    const { transport, analytics } = setup();
    for (let i = 1; i <= 50; i++) analytics.track(`e${i}`);
    await vi.advanceTimersByTimeAsync(0);
    expect(transport.send).toHaveBeenCalledTimes(1);

    analytics.track('e51');
    await vi.advanceTimersByTimeAsync(flushDelayMs - 1);
    expect(transport.send).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(transport.send).toHaveBeenCalledTimes(2);
    expect(names(transport.send.mock.calls[1]![0])).toEqual(['e51']);
  });

  it('sends each event once across back-to-back full batches', async () => {
    const { transport, analytics } = setup();
    for (let i = 1; i <= 120; i++) analytics.track(`e${i}`);
    await vi.advanceTimersByTimeAsync(flushDelayMs);
    const batches = transport.send.mock.calls.map(([batch]) => names(batch));
    expect(batches.map((batch) => batch.length)).toEqual([50, 50, 20]);
    expect(batches.flat()).toEqual(Array.from({ length: 120 }, (_, i) => `e${i + 1}`));
  });

  it('a failing transport does not throw and does not block later batches', async () => {
    const { transport, analytics } = setup(async () => {
      throw new Error('offline');
    });
    analytics.track('a');
    await vi.advanceTimersByTimeAsync(flushDelayMs);
    expect(transport.send).toHaveBeenCalledTimes(1);

    transport.send.mockImplementation(async () => {});
    analytics.track('b');
    await vi.advanceTimersByTimeAsync(flushDelayMs);
    expect(transport.send).toHaveBeenCalledTimes(2);
    expect(names(transport.send.mock.calls[1]![0])).toEqual(['b']);
  });

  it('flush() resolves even when sending fails', async () => {
    const { transport, analytics } = setup(async () => {
      throw new Error('offline');
    });
    analytics.track('a');
    await expect(analytics.flush()).resolves.toBeUndefined();
    expect(transport.send).toHaveBeenCalledTimes(1);
  });

  it('after a batch fails, a flush in progress goes on to send what was queued meanwhile', async () => {
    let failFirst: (error: Error) => void = () => {};
    const { transport, analytics } = setup();
    transport.send.mockImplementationOnce(() => new Promise<void>((_resolve, reject) => (failFirst = reject)));
    for (let i = 1; i <= 50; i++) analytics.track(`e${i}`);
    analytics.track('late1');
    analytics.track('late2');
    expect(transport.send).toHaveBeenCalledTimes(1);

    failFirst(new Error('offline'));
    // No need to wait for the flush delay: the running flush drains the queue.
    await vi.advanceTimersByTimeAsync(0);
    expect(transport.send).toHaveBeenCalledTimes(2);
    expect(names(transport.send.mock.calls[1]![0])).toEqual(['late1', 'late2']);
  });

  it('a transport that throws synchronously is contained too', async () => {
    const { transport, analytics } = setup();
    transport.send.mockImplementationOnce(() => {
      throw new Error('boom');
    });
    expect(() => {
      for (let i = 0; i < 50; i++) analytics.track('x');
    }).not.toThrow();
    analytics.track('y');
    await vi.advanceTimersByTimeAsync(flushDelayMs);
    expect(names(transport.send.mock.calls[1]![0])).toEqual(['y']);
  });

  it('flushOnExit beacons everything queued, sends nothing, and cancels the pending flush', async () => {
    const { transport, analytics } = setup();
    analytics.track('a');
    analytics.track('b', { step: 2 });
    analytics.track('c');
    expect(vi.getTimerCount()).toBe(1);

    analytics.flushOnExit();
    expect(transport.beacon).toHaveBeenCalledTimes(1);
    expect(transport.beacon.mock.calls[0]![0]).toEqual({
      events: [
        { name: 'a', at, sessionId, properties: {} },
        { name: 'b', at, sessionId, properties: { step: 2 } },
        { name: 'c', at, sessionId, properties: {} },
      ],
    });
    expect(vi.getTimerCount()).toBe(0);

    await vi.advanceTimersByTimeAsync(flushDelayMs * 2);
    expect(transport.send).not.toHaveBeenCalled();
    await analytics.flush();
    expect(transport.send).not.toHaveBeenCalled();
    expect(transport.beacon).toHaveBeenCalledTimes(1);
  });

  it('flushOnExit with nothing queued beacons nothing', () => {
    const { transport, analytics } = setup();
    analytics.flushOnExit();
    expect(transport.beacon).not.toHaveBeenCalled();
  });

  it('tracks normally again after flushOnExit', async () => {
    const { transport, analytics } = setup();
    analytics.track('a');
    analytics.flushOnExit();
    analytics.track('b');
    await vi.advanceTimersByTimeAsync(flushDelayMs);
    expect(transport.send).toHaveBeenCalledTimes(1);
    expect(names(transport.send.mock.calls[0]![0])).toEqual(['b']);
  });

  it('keeps one session while events keep coming, and starts a new one after 300000 ms of quiet', async () => {
    expect(sessionTimeoutMs).toBe(300_000);
    const { transport, analytics } = setup(async () => {}, () => new Date());
    analytics.track('a');
    await vi.advanceTimersByTimeAsync(sessionTimeoutMs);
    analytics.track('b'); // exactly at the timeout: still the same session
    await vi.advanceTimersByTimeAsync(sessionTimeoutMs + 1);
    analytics.track('c');
    await analytics.flush();

    const sessions = transport.send.mock.calls.flatMap(([batch]) => batch.events.map((event) => event.sessionId));
    expect(sessions).toHaveLength(3);
    expect(sessions[0]).toBe(sessions[1]);
    expect(sessions[2]).not.toBe(sessions[1]);
  });

  it('sends user properties (experiment exposures) with every batch after they are set', async () => {
    const { transport, analytics } = setup();
    analytics.track('before');
    await analytics.flush();
    analytics.setUserProperties({ 'experiment.virtualCards': true });
    analytics.setUserProperties({ 'experiment.showNewDebitDetails': false });
    analytics.track('after');
    await analytics.flush();

    expect(transport.send.mock.calls[0]![0].userProperties).toBeUndefined();
    expect(transport.send.mock.calls[1]![0].userProperties).toEqual({
      'experiment.virtualCards': true,
      'experiment.showNewDebitDetails': false,
    });
  });
});

describe('analytics before the redaction rules have loaded', () => {
  // Fresh modules: nothing has loaded the rules yet, as on a phone that just opened the app.
  async function freshAnalytics() {
    vi.resetModules();
    const { createAnalytics: create } = await import('../../src/app/analytics.ts');
    const transport = { send: vi.fn(async (_batch: AnalyticsBatch) => {}), beacon: vi.fn((_batch: AnalyticsBatch) => {}) };
    return { transport, analytics: create(transport, () => new Date(at)) };
  }
  afterEach(() => {
    vi.doUnmock('../../contract/shared/redaction.ts');
    vi.resetModules();
  });

  it('sends nothing unredacted: a flush waits for the rules, a page going away sends names and times only', async () => {
    const { transport, analytics } = await freshAnalytics();
    analytics.track('signIn.codeTyped', { code: '123456', screen: 'signin' });
    await analytics.flush();
    expect(transport.send).toHaveBeenCalledTimes(1);
    expect(transport.send.mock.calls[0]![0].events.map((event) => event.properties)).toEqual([{ code: '[redacted]', screen: 'signin' }]);

    const early = await freshAnalytics();
    early.analytics.track('signIn.codeTyped', { code: '123456', screen: 'signin' });
    early.analytics.flushOnExit();
    expect(early.transport.beacon).toHaveBeenCalledTimes(1);
    expect(early.transport.beacon.mock.calls[0]![0].events).toEqual([{ name: 'signIn.codeTyped', at, sessionId, properties: {} }]);
    await early.analytics.flush();
    expect(early.transport.send).not.toHaveBeenCalled();
  });

  it('rules that cannot load (offline) drop the events unsent, and are asked for again by the next flush', async () => {
    vi.doMock('../../contract/shared/redaction.ts', () => {
      throw new Error('Failed to fetch dynamically imported module');
    });
    const { transport, analytics } = await freshAnalytics();
    analytics.track('home.viewed', { accountNumber: '400012345678' });
    await expect(analytics.flush()).resolves.toBeUndefined();
    expect(transport.send).not.toHaveBeenCalled();

    vi.doUnmock('../../contract/shared/redaction.ts');
    analytics.track('activity.viewed');
    await analytics.flush();
    expect(transport.send).toHaveBeenCalledTimes(1);
    expect(names(transport.send.mock.calls[0]![0])).toEqual(['activity.viewed']);
  });
});
