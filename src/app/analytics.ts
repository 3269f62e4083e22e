/**
 * Analytics (spec §2 route visits, §4 registration result, §7 experiment exposures and session
 * timeout, §8 answers without a statusCode): events are queued and sent in batches to the card API,
 * which stores them. A vendor adapter replaces the transport without touching callers.
 */
import { analyticsRoutes } from '../../contract/analytics/routes.ts';
import type { AnalyticsBatch, AnalyticsEvent, UserProperties } from '../../contract/analytics/types.ts';
import { urlOf } from '../../contract/shared/route.ts';
import { loadRedaction, loadedRedaction, type Redaction } from './reportRedaction.ts';

export const maxBatchSize = 50;
export const flushDelayMs = 2000;
/** An analytics session ends after this long without events (spec §7). */
export const sessionTimeoutMs = 300_000;

export type AnalyticsTransport = {
  send: (batch: AnalyticsBatch) => Promise<void>;
  /** Best-effort delivery when the page is going away. */
  beacon: (batch: AnalyticsBatch) => void;
};

export function createAnalytics(transport: AnalyticsTransport, now = () => new Date()) {
  let queue: AnalyticsEvent[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let userProperties: UserProperties = {};
  let session = { id: crypto.randomUUID(), lastEventAt: now().getTime() };

  function sessionId(at: number): string {
    if (at - session.lastEventAt > sessionTimeoutMs) session = { id: crypto.randomUUID(), lastEventAt: at };
    session.lastEventAt = at;
    return session.id;
  }

  function batchOf(events: AnalyticsEvent[]): AnalyticsBatch {
    return Object.keys(userProperties).length > 0 ? { events, userProperties } : { events };
  }

  /**
   * The next batch, redacted (contract/shared/redaction.ts; the card API redacts again); without the
   * rules, with no properties at all (names and times only).
   */
  function take(rules?: Redaction): AnalyticsEvent[] {
    const batch = queue.slice(0, maxBatchSize);
    queue = queue.slice(batch.length);
    return batch.map((event) => ({ ...event, properties: (rules?.redactAnalytics(event.properties) ?? {}) as Record<string, unknown> }));
  }

  async function flush(): Promise<void> {
    clearTimeout(timer);
    timer = undefined;
    let rules = loadedRedaction();
    if (!rules && queue.length > 0) {
      try {
        rules = await loadRedaction();
      } catch {
        // Offline before the rules came: the events are dropped, as a failed batch is.
        queue = [];
        return;
      }
    }
    while (queue.length > 0) {
      const batch = take(rules);
      try {
        await transport.send(batchOf(batch));
      } catch {
        // Analytics never gets in a cardholder's way: a failed batch is dropped.
      }
    }
  }

  function track(name: string, properties: Record<string, unknown> = {}): void {
    const at = now();
    // Redacted when sent (take).
    queue.push({ name, at: at.toISOString(), sessionId: sessionId(at.getTime()), properties });
    if (queue.length >= maxBatchSize) void flush();
    else timer ??= setTimeout(() => void flush(), flushDelayMs);
  }

  function flushOnExit(): void {
    clearTimeout(timer);
    timer = undefined;
    // The page may not come back: without the rules yet, the events go without their properties.
    const rules = loadedRedaction();
    while (queue.length > 0) transport.beacon(batchOf(take(rules)));
  }

  /** Properties of the user that travel with every later batch (experiment exposures). */
  function setUserProperties(properties: UserProperties): void {
    userProperties = { ...userProperties, ...properties };
  }

  return { track, flush, flushOnExit, setUserProperties };
}

export type Analytics = ReturnType<typeof createAnalytics>;

/** Sends batches to POST /api/v1/analytics/events. */
export function cardApiAnalyticsTransport(headers: () => Record<string, string>): AnalyticsTransport {
  const url = urlOf(analyticsRoutes.sendAnalyticsEvents);
  return {
    send: async (batch) => {
      await fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers() },
        body: JSON.stringify(batch),
        keepalive: true,
      });
    },
    beacon: (batch) => {
      navigator.sendBeacon?.(url, new Blob([JSON.stringify(batch)], { type: 'application/json' }));
    },
  };
}
