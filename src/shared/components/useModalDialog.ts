import { useEffect, useRef } from 'react';

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
      if (typeof element.close === 'function') element.close();
      else element.removeAttribute('open');
    }
  }, [open]);
  return dialog;
}
