/**
 * Something could not be loaded or sent: what, said plainly, and a way to try again. An alert (a
 * failure is announced at once); `news` for a notice that is not a failure (the offline copy shown).
 */
import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';

export function RetryNotice({ children, onRetry, news = false }: { children: ReactNode; onRetry: () => void; news?: boolean }) {
  return (
    <div className="notice" role={news ? 'status' : 'alert'}>
      <p>{children}</p>
      <button type="button" className="button" onClick={onRetry}>
        <Trans>Try again</Trans>
      </button>
    </div>
  );
}
