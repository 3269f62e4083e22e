/**
 * The window side of the host protocol (contract/hostProtocol.ts): one `message` listener that drops every
 * message whose origin is not exactly allowlisted (reporting a warning), and a bridge to the parent
 * window that asks questions, tells notices and hears pushes. Outgoing messages always name the
 * exact parent origin, never '*'.
 */
import {
  noticeMessage,
  parseHostMessage,
  queryMessage,
  replyChecks,
  type HostNotices,
  type HostNoticeType,
  type HostQueries,
  type HostQueryType,
  type PushMessage,
} from '../../../contract/hostProtocol.ts';

/** How long the app waits for the host to answer a question before going on without it (but slowHostReplyTimeoutMs's). */
export const hostReplyTimeoutMs = 3000;

/**
 * Questions the host cannot answer from what it holds: its own token may take a request on a slow
 * network (spec §7: requests wait 120 s), and a permission request waits for the person to choose.
 * Asked only of a host that has answered before, so a missing host still costs 3 s, not minutes.
 */
export const slowHostReplyTimeoutMs: Partial<Record<HostQueryType, number>> = {
  'parentApp.accessToken.get': 120_000,
  'notificationPermission.request': 120_000,
};

export class HostUnavailableError extends Error {
  constructor(readonly query: HostQueryType, reason: string) {
    super(`The host did not answer ${query}: ${reason}`);
  }
}

export type OriginGate = {
  /** Exact origins whose messages are accepted, by who may send them. */
  hostOrigins: string[];
  otherTrustedOrigins: string[];
  /** A message from any other origin (reported as a warning, once per origin). */
  onUnknownOrigin: (origin: string) => void;
  /** A message from an allowed origin that is not a protocol message we can read. */
  onMalformed: (origin: string) => void;
};

export type HostBridge = {
  ask: <T extends HostQueryType>(type: T) => Promise<HostQueries[T]>;
  tell: <T extends HostNoticeType>(type: T, payload: HostNotices[T]) => void;
  onPush: (listener: (message: PushMessage) => void) => () => void;
  /** The parent's origin, once known. */
  parentOrigin: () => string | null;
  close: () => void;
};

type Pending = { type: HostQueryType; resolve: (payload: unknown) => void; reject: (error: Error) => void };

/**
 * Connects to the parent window. When the browser does not say who the parent is, questions go to
 * every allowlisted host origin (the browser delivers only to the one that matches) and the first
 * reply fixes the parent's origin.
 */
export function connectHostBridge(
  self: Window,
  options: OriginGate & { parentOrigin: string | null; timeoutMs?: number },
): HostBridge {
  const parent = self.parent;
  const timeoutMs = options.timeoutMs ?? hostReplyTimeoutMs;
  let parentOrigin = options.parentOrigin && options.hostOrigins.includes(options.parentOrigin) ? options.parentOrigin : null;
  // An unknown or unlisted parent origin (a stale referrer after a redirect, say) is not trusted:
  // ask every listed host instead; the browser delivers only where the origin really matches.
  const candidates = parentOrigin ? [parentOrigin] : options.hostOrigins;
  const pending = new Map<string, Pending>();
  const pushListeners = new Set<(message: PushMessage) => void>();
  const warned = new Set<string>();

  const targets = () => (parentOrigin ? [parentOrigin] : candidates);

  function onMessage(event: MessageEvent): void {
    if (event.origin === self.location.origin) return; // our own window (dev tools, tests)
    const fromHost = options.hostOrigins.includes(event.origin);
    if (!fromHost && !options.otherTrustedOrigins.includes(event.origin)) {
      if (!warned.has(event.origin)) {
        warned.add(event.origin);
        options.onUnknownOrigin(event.origin);
      }
      return;
    }
    // Processor and account-linking messages belong to their own flows, and only the parent is the host.
    if (!fromHost || event.source !== parent || (parentOrigin && event.origin !== parentOrigin)) return;
    const message = parseHostMessage(event.data);
    if (!message) return options.onMalformed(event.origin);
    if (message.type !== 'reply') {
      pushListeners.forEach((listener) => listener(message));
      return;
    }
    const waiting = pending.get(message.replyTo);
    if (!waiting) return;
    pending.delete(message.replyTo);
    parentOrigin ??= event.origin;
    if (message.error !== undefined) waiting.reject(new HostUnavailableError(waiting.type, message.error || 'error'));
    else if (!replyChecks[waiting.type](message.payload)) {
      options.onMalformed(event.origin);
      waiting.reject(new HostUnavailableError(waiting.type, 'malformed reply'));
    } else waiting.resolve(message.payload);
  }
  self.addEventListener('message', onMessage);

  function ask<T extends HostQueryType>(type: T): Promise<HostQueries[T]> {
    const origins = targets();
    if (origins.length === 0) return Promise.reject(new HostUnavailableError(type, 'no allowlisted parent'));
    const id = crypto.randomUUID();
    return new Promise<HostQueries[T]>((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new HostUnavailableError(type, 'timeout'));
      }, slowHostReplyTimeoutMs[type] ?? timeoutMs);
      pending.set(id, {
        type,
        resolve: (payload) => {
          clearTimeout(timer);
          resolve(payload as HostQueries[T]);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      for (const origin of origins) parent.postMessage(queryMessage(type, id), origin);
    });
  }

  return {
    ask,
    tell: (type, payload) => {
      // Notices go only to a parent that has proved its origin by answering.
      if (parentOrigin) parent.postMessage(noticeMessage(type, payload), parentOrigin);
    },
    onPush: (listener) => {
      pushListeners.add(listener);
      return () => pushListeners.delete(listener);
    },
    parentOrigin: () => parentOrigin,
    close: () => self.removeEventListener('message', onMessage),
  };
}
