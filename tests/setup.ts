import { afterAll, vi } from 'vitest';
import { noteServerAnswered } from '../src/shared/api/serverAnswered.ts';

// Files share their worker (isolate: false in vite.config.ts): no file leaves its fake clock or
// stubbed globals to the next.
afterAll(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  // A call left without an answer would make the next file's failure notices blame the connection.
  noteServerAnswered(true);
});
