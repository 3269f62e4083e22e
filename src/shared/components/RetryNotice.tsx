/**
 * Something could not be loaded or sent: what, said plainly, and a way to try again. An alert (a
 * failure is announced at once); `news` for a notice that is not a failure (the offline copy shown).
 * A failure often replaces the button that was pressed (or shows after it was disabled), which leaves
 * the keyboard's focus nowhere: then it goes to Try again. Focus that is somewhere is left there.
 */
import { Trans } from '@lingui/react/macro';
import { useEffect, useRef, type ReactNode } from 'react';
import { focusIsNowhere } from './focusIsNowhere.ts';

export function RetryNotice({ children, onRetry, news = false }: { children: ReactNode; onRetry: () => void; news?: boolean }) {
  const retry = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!news && focusIsNowhere()) retry.current?.focus();
  }, [news]);
  return (
    <div className="notice" role={news ? 'status' : 'alert'}>
      <p>{children}</p>
      <button ref={retry} type="button" className="button" onClick={onRetry}>
        <Trans>Try again</Trans>
      </button>
    </div>
  );
}
