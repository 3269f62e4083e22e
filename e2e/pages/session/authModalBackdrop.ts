/** What the auth modal leaves visible of the screen under it. */
import { expect, type Locator } from '@playwright/test';

/**
 * Expects the modal's backdrop to hide the screen under it: when a session ends, whoever holds the
 * phone next must not see the last cardholder's balance or activity behind the sign-in form.
 */
export async function expectScreenHiddenBehind(modal: Locator): Promise<void> {
  const backdrop = await modal.evaluate((dialog) => getComputedStyle(dialog, '::backdrop').backgroundColor);
  // Chromium writes an opaque colour as rgb(r, g, b) and a see-through one as rgba(r, g, b, alpha).
  expect(backdrop, 'the backdrop behind the auth modal is opaque').toMatch(/^rgb\(\d+, \d+, \d+\)$/);
}
