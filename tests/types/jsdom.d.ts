/** The little of jsdom's API the server tests use to read and check pages (jsdom ships no types of its own). */
declare module 'jsdom' {
  export class JSDOM {
    constructor(html?: string, options?: { runScripts?: 'outside-only' | 'dangerously'; pretendToBeVisual?: boolean });
    readonly window: Window & typeof globalThis;
  }
}
