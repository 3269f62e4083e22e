/**
 * The app shell stays on the phone (public/sw.js), so with no network it still opens and shows the
 * last-known balance. Standalone only: inside the companion app the host owns the phone's storage.
 * Loaded once the first screen is shown, the page has loaded and the phone is idle (src/app/main.tsx):
 * nothing here is needed to show it, and its install would take the cores that screen is drawn with.
 */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  // Once the worker controls the page, what the page fetches goes through it. What it fetched without
  // the worker (before it took over, or still in flight then) is handed to it, so this first visit
  // already opens offline.
  // The first hand-over is sent even when empty: the worker then also tidies its cache (public/sw.js).
  // Later ones only name files: once the worker controls the page, every request goes through it.
  const handOver = (entries: PerformanceEntryList, evenIfEmpty: boolean) => {
    const urls = (entries as PerformanceResourceTiming[]).filter((entry) => entry.workerStart === 0).map((entry) => entry.name);
    if (urls.length > 0 || evenIfEmpty) navigator.serviceWorker.controller?.postMessage({ type: 'cache-assets', urls });
  };
  const whenControlled = () => {
    handOver(performance.getEntriesByType('resource'), true);
    new PerformanceObserver((list) => handOver(list.getEntries(), false)).observe({ type: 'resource' });
  };
  navigator.serviceWorker
    .register('/sw.js')
    .then(() => {
      if (navigator.serviceWorker.controller) whenControlled();
      else navigator.serviceWorker.addEventListener('controllerchange', whenControlled, { once: true });
    })
    .catch(() => {});
}
