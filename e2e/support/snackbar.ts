/**
 * The snackbar goes by itself after 5 s of the page's time: a check that it is visible passes only if
 * the test looks within those 5 s, which a loaded machine may not. Specs that check what it said import
 * `test` from here: every page of their context records each message as it is put in (a
 * MutationObserver, called as the DOM changes, not on a timer), and `AppPage.expectSnackbarSaid` reads
 * the record. A spec that checks with the plain `test` finds no record and fails, never passes unchecked.
 */
import { test as base } from '@playwright/test';

declare global {
  interface Window {
    saidBySnackbar?: string[];
  }
}

function recordSnackbar(): void {
  const said: string[] = (window.saidBySnackbar = []);
  let last = '';
  new MutationObserver(() => {
    const text = document.querySelector('.snackbar [role="status"]')?.textContent ?? '';
    if (text !== last && text) said.push(text);
    last = text;
  }).observe(document, { subtree: true, childList: true, characterData: true });
}

export const test = base.extend({
  context: async ({ context }, use) => {
    await context.addInitScript(recordSnackbar);
    await use(context);
  },
});
