import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => cleanup());

// jsdom has no layout: the router's scroll-to-top on navigation has nothing to scroll.
window.scrollTo = () => {};
