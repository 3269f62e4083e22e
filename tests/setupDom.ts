import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => cleanup());

// jsdom has no layout: the router's scroll-to-top on navigation has nothing to scroll.
window.scrollTo = () => {};

// jsdom has no layout, so nothing is ever resized: an observer that is never called (tests that need
// it called give their own, tests/unit/snackbar.test.tsx).
window.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};
