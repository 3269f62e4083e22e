import { useEffect, useRef } from 'react';
import { focusIsNowhere } from './focusIsNowhere.ts';

/**
 * Opens and closes a native `<dialog>` as a modal with `open`, so focus, inertness behind it and
 * Escape come from the browser. jsdom and some old WebViews lack showModal: the dialog still opens,
 * without the backdrop.
 */
export function useModalDialog(open: boolean) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      if (typeof element.showModal === 'function') element.showModal();
      else element.setAttribute('open', '');
    }
    if (!open && element.open) {
      // The browser gives the focus back to what had it before the dialog opened. With nothing to give
      // it to (the dialog opened as the page loaded, or its opener has gone), the screen's heading takes
      // it, once the close event's listeners have had their turn (takeFocusIfNowhere), so that the next
      // Tab does not start over at the top of the page and a screen reader says where it is.
      if (typeof element.close === 'function') {
        element.addEventListener('close', () => setTimeout(focusHeadingIfNowhere), { once: true });
        element.close();
      } else {
        element.removeAttribute('open');
        setTimeout(focusHeadingIfNowhere);
      }
    }
  }, [open]);
  return dialog;
}

function focusHeadingIfNowhere() {
  if (focusIsNowhere()) document.querySelector<HTMLElement>('main h1')?.focus({ preventScroll: true });
}
