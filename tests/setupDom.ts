import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => cleanup());

// findBy* and waitFor end as soon as what they wait for is there; their default limit of 1 s failed a
// test on a busy machine (homeInHost's notifications answer). A slow machine waits longer, a broken
// feature still fails (Vitest's own test limit is 120 s: `testTimeout` in vite.config.ts).
configure({ asyncUtilTimeout: 10_000 });

// jsdom has no layout: the router's scroll-to-top on navigation has nothing to scroll.
window.scrollTo = () => {};

// jsdom has no layout, so nothing is ever resized: an observer that is never called (tests that need
// it called give their own, tests/unit/snackbar.test.tsx).
window.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};
