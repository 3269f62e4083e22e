import { Trans } from '@lingui/react/macro';
import { useEffect, useRef } from 'react';

/** The generic error modal (spec §8): a native dialog, so focus and Escape work everywhere. */
export function ErrorModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
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
