import { Trans } from '@lingui/react/macro';
import { connectionSuspect } from '../api/serverAnswered.ts';
import { useModalDialog } from './useModalDialog.ts';

/**
 * The generic error modal (spec §8). When the connection is the likely cause (the phone is offline, or
 * the call got no answer at all) it says so instead of "an unexpected error": the words of
 * failureMessage (src/shared/messages.ts), written here so the entry does not load the forms' shared
 * chunk that holds them. Read when the modal is drawn, which its opening does.
 */
export function ErrorModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const dialog = useModalDialog(open);
  return (
    <dialog ref={dialog} className="modal" aria-labelledby="error-modal-title" onClose={onClose}>
      <h2 id="error-modal-title">
        <Trans>Sorry, something went wrong.</Trans>
      </h2>
      <p>
        {connectionSuspect() ? (
          <Trans>We couldn't reach Providers. Check your connection and try again.</Trans>
        ) : (
          <Trans>There was an unexpected error. Please try again.</Trans>
        )}
      </p>
      <button type="button" className="button" onClick={onClose}>
        <Trans>OK</Trans>
      </button>
    </dialog>
  );
}
