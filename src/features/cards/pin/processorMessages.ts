/**
 * The window side of the processor's hosted PIN page (spec §4): the page, in a frame on the card
 * processor's own origin, posts a bare number to the app (0 success, -10 expired token, -11 token
 * changed). Only a message from exactly an allowlisted processor origin (AppConfig.processorOrigins)
 * and from that very frame is passed on; every other message is ignored. A message from an origin no
 * list trusts is reported as a warning, once per origin, as the host bridge does
 * (src/shared/host/bridge.ts); the app's own origin and the other trusted peers (the companion host,
 * account linking) speak their own protocols and are left alone.
 */
export type ProcessorListener = {
  /** Exact origins of the card processor. */
  processorOrigins: readonly string[];
  /** Exact origins trusted for something else: ignored here without a warning. */
  otherTrustedOrigins: readonly string[];
  /** The processor's frame, once it is on the screen: only its own messages count. */
  frame: () => Window | null;
  onResult: (code: unknown) => void;
  onUnknownOrigin: (origin: string) => void;
};

/** Listens on `self` until the returned function is called. */
export function listenToProcessorMessages(self: Window, options: ProcessorListener): () => void {
  const warned = new Set<string>();
  function onMessage(event: MessageEvent): void {
    if (options.processorOrigins.includes(event.origin)) {
      const frame = options.frame();
      if (frame !== null && event.source === frame) options.onResult(event.data);
      return;
    }
    if (event.origin === self.location.origin || options.otherTrustedOrigins.includes(event.origin)) return;
    if (!warned.has(event.origin)) {
      warned.add(event.origin);
      options.onUnknownOrigin(event.origin);
    }
  }
  self.addEventListener('message', onMessage);
  return () => self.removeEventListener('message', onMessage);
}
