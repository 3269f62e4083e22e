import { useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';

/**
 * A polite status message; the session chart dismisses it after 5000 ms. Its live region is always in
 * the page, empty while nothing is shown: screen readers announce text put into a region that was
 * already there, and often miss one added together with its text (WCAG 2.2 SC 4.1.3).
 */
export function Snackbar({ message, onDismiss }: { message: ReactNode | null; onDismiss: () => void }) {
  const { t } = useLingui();
  return (
    <div className={message ? 'snackbar' : undefined}>
      <span role="status">{message}</span>
      {message ? (
        <button type="button" className="snackbar-dismiss" onClick={onDismiss} aria-label={t`Dismiss`}>
          ×
        </button>
      ) : null}
    </div>
  );
}
