import { useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';

/** A polite status message; the session chart dismisses it after 5000 ms. */
export function Snackbar({ message, onDismiss }: { message: ReactNode; onDismiss: () => void }) {
  const { t } = useLingui();
  return (
    <div className="snackbar" role="status">
      <span>{message}</span>
      <button type="button" className="snackbar-dismiss" onClick={onDismiss} aria-label={t`Dismiss`}>
        ×
      </button>
    </div>
  );
}
