let warming = false;

/**
 * Starts ICU off the main thread, once per page. The page's first Intl object starts ICU: 12–18 ms on
 * the main thread in a fresh Chromium here, four to six times that on a slow phone, in one task. ICU
 * keeps its data for the whole renderer, so after a worker has built the same formats the main thread's
 * first one takes well under a millisecond. Without Worker (tests, old browsers) nothing happens.
 * Home, the first screen of most visits, starts it as it asks for the account (earlyHome.ts): started
 * only when its own code loads, the worker often lost the race to the first render.
 */
export function warmUpIntl(): void {
  if (warming || typeof Worker === 'undefined') return;
  warming = true;
  new Worker(new URL('./intlWarmUp.worker.ts', import.meta.url), { type: 'module' });
}
