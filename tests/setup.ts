import { afterAll, vi } from 'vitest';

// Files share their worker (isolate: false in vite.config.ts): no file leaves its fake clock or
// stubbed globals to the next.
afterAll(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
