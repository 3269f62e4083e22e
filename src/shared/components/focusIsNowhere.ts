/**
 * The keyboard's focus is on no control: the one pressed was replaced, or dropped it while disabled
 * (Chromium moves the focus to the page's start). Screens then give it to what came next, never taking
 * it from where it is.
 */
export const focusIsNowhere = () => document.activeElement === null || document.activeElement === document.body;
