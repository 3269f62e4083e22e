/**
 * Analytics: events are queued and sent in batches to the card API, which stores them.
 * A vendor adapter can replace `send` without touching callers.
 */
import type { AnalyticsEvent } from '../../contract/api.ts';

export const maxBatchSize = 50;
export const flushDelayMs = 2000;

export type AnalyticsTransport = {
  send: (events: AnalyticsEvent[]) => Promise<void>;
  /** Best-effort delivery when the page is going away. */
  beacon: (events: AnalyticsEvent[]) => void;
};

export function createAnalytics(transport: AnalyticsTransport, now = () => new Date()) {
  let queue: AnalyticsEvent[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;

  function take(): AnalyticsEvent[] {
    const batch = queue.slice(0, maxBatchSize);
    queue = queue.slice(batch.length);
    return batch;
  }

  async function flush(): Promise<void> {
    clearTimeout(timer);
    timer = undefined;
    while (queue.length > 0) {
      const batch = take();
      try {
        await transport.send(batch);
      } catch {
        // Analytics never gets in a cardholder's way: a failed batch is dropped.
      }
    }
  }

  function track(name: string, properties: Record<string, unknown> = {}): void {
    queue.push({ name, at: now().toISOString(), properties });
    if (queue.length >= maxBatchSize) void flush();
    else timer ??= setTimeout(() => void flush(), flushDelayMs);
  }

  function flushOnExit(): void {
    clearTimeout(timer);
    timer = undefined;
    while (queue.length > 0) transport.beacon(take());
  }

  return { track, flush, flushOnExit };
}

export type Analytics = ReturnType<typeof createAnalytics>;

/** Sends batches to POST /api/v1/analytics/events. */
export function cardApiAnalyticsTransport(headers: () => Record<string, string>): AnalyticsTransport {
  const url = '/api/v1/analytics/events';
  return {
    send: async (events) => {
      await fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers() },
        body: JSON.stringify({ events }),
        keepalive: true,
      });
    },
    beacon: (events) => {
      navigator.sendBeacon?.(url, new Blob([JSON.stringify({ events })], { type: 'application/json' }));
    },
  };
}
