import { Trans } from '@lingui/react/macro';
import { useEffect, useRef } from 'react';

/** The generic error modal (spec §8): a native dialog, so focus and Escape work everywhere. */
export function ErrorModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    // jsdom and some old WebViews lack showModal: the dialog still opens, without the backdrop.
    if (open && !element.open) {
      if (typeof element.showModal === 'function') element.showModal();
      else element.setAttribute('open', '');
    }
    if (!open && element.open) {
      if (typeof element.close === 'function') element.close();
      else element.removeAttribute('open');
    }
  }, [open]);
  return (
    <dialog ref={dialog} className="modal" aria-labelledby="error-modal-title" onClose={onClose}>
      <h2 id="error-modal-title">
        <Trans>Sorry, something went wrong.</Trans>
      </h2>
      <p>
        <Trans>There was an unexpected error. Please try again.</Trans>
      </p>
      <button type="button" className="button" onClick={onClose}>
        <Trans>OK</Trans>
      </button>
    </dialog>
  );
}
