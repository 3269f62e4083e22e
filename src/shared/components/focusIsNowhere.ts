/**
 * The keyboard's focus is on no control: the one pressed was replaced, or dropped it while disabled
 * (Chromium moves the focus to the page's start). Screens then give it to what came next, never taking
 * it from where it is.
 */
export const focusIsNowhere = () => document.activeElement === null || document.activeElement === document.body;

/**
 * The press of a button that its call makes `disabled`: the focus leaves it at once, as Chromium would
 * at its next frame, then `then` runs. A call that failed before that frame enabled the button again
 * in time and the focus stayed on it: what took the focus next hung on how fast the answer came.
 */
export const letFocusGoThen =
  (then: () => void) =>
  (event: { currentTarget: HTMLElement }): void => {
    event.currentTarget.blur();
    then();
  };

/**
 * Gives `target` the focus if it is nowhere. A call with no answer also opened the error modal, which
 * gives the focus back to the button pressed when it closes, gone or disabled by then: then `target`
 * takes it once the modal closes (Chromium still has it on the modal's button at the close event, then
 * drops it to the page). A modal that holds `target` (the auth modal) is not waited for. Returns the
 * effect's cleanup.
 */
export function takeFocusIfNowhere(target: () => HTMLElement | null | undefined): (() => void) | undefined {
  const modal = document.activeElement?.closest('dialog[open]');
  const waits = modal && !modal.contains(target() ?? null);
  const take = () => void ((focusIsNowhere() || (waits && modal.contains(document.activeElement))) && target()?.focus());
  if (!waits) return take();
  modal.addEventListener('close', take, { once: true });
  return () => modal.removeEventListener('close', take);
}
