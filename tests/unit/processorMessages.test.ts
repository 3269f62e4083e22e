/**
 * The processor's hosted PIN page talks to the app by window messages: only its exact allowlisted
 * origin, from its own frame, is heard; everything else is ignored, and unknown origins are reported.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { listenToProcessorMessages } from '../../src/features/cards/pin/processorMessages.ts';

const processor = 'http://localhost:8100';
const companion = 'http://localhost:8090';

function setUp() {
  const frame = document.createElement('iframe');
  document.body.append(frame);
  const results: unknown[] = [];
  const warnings: string[] = [];
  const stop = listenToProcessorMessages(window, {
    processorOrigins: [processor],
    otherTrustedOrigins: [companion],
    frame: () => frame.contentWindow,
    onResult: (code) => void results.push(code),
    onUnknownOrigin: (origin) => void warnings.push(origin),
  });
  const post = (data: unknown, origin: string, source: Window | null = frame.contentWindow) =>
    window.dispatchEvent(new MessageEvent('message', { data, origin, source }));
  return { frame, results, warnings, stop, post };
}

let stopListening: (() => void) | null = null;
afterEach(() => {
  stopListening?.();
  document.body.innerHTML = '';
});

describe('processor messages', () => {
  it('passes on what the processor frame posts from its exact origin: 0, -10, -11 and anything else', () => {
    const { results, warnings, stop, post } = setUp();
    stopListening = stop;
    post(0, processor);
    post(-10, processor);
    post(-11, processor);
    post('resize', processor);
    expect(results).toEqual([0, -10, -11, 'resize']);
    expect(warnings).toEqual([]);
  });

  it.each([
    ['a look-alike origin one digit longer', 'http://localhost:81001'],
    ['a look-alike origin with the port as a prefix', 'http://localhost:810'],
    ['the processor host over https', 'https://localhost:8100'],
    ['the processor with a trailing slash', 'http://localhost:8100/'],
    ['another host', 'https://evil.example'],
    ['the opaque origin of a sandboxed frame', 'null'],
  ])('ignores a message from %s, and reports the origin once', (_name, origin) => {
    const { results, warnings, stop, post } = setUp();
    stopListening = stop;
    post(0, origin);
    post(0, origin);
    expect(results).toEqual([]);
    expect(warnings).toEqual([origin]);
  });

  it("ignores the app's own origin and the other trusted peers without a warning", () => {
    const { results, warnings, stop, post } = setUp();
    stopListening = stop;
    post(0, window.location.origin);
    post(0, companion);
    expect(results).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it('ignores the processor origin from any window but its frame', () => {
    const { frame, results, stop, post } = setUp();
    stopListening = stop;
    const other = document.createElement('iframe');
    document.body.append(other);
    post(0, processor, other.contentWindow);
    post(0, processor, window);
    post(0, processor, null);
    frame.remove();
    post(0, processor, null);
    expect(results).toEqual([]);
  });

  it('hears nothing once stopped', () => {
    const { results, stop, post } = setUp();
    stop();
    post(0, processor);
    expect(results).toEqual([]);
  });
});
