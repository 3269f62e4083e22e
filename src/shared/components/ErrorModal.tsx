import { Trans } from '@lingui/react/macro';
import { useModalDialog } from './useModalDialog.ts';

/** The generic error modal (spec §8). */
export function ErrorModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const dialog = useModalDialog(open);
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
