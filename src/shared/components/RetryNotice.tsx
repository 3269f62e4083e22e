/**
 * Something could not be loaded or sent: what, said plainly, and a way to try again. An alert (a
 * failure is announced at once); `news` for a notice that is not a failure (the offline copy shown).
 * A failure often replaces the button that was pressed (or shows after it was disabled), which leaves
 * the keyboard's focus nowhere: then it goes to Try again, also once the error modal that came with the
 * failure closes. Focus that is somewhere is left there.
 * `advise` adds what to do next (ConnectionAdvice), by the rule `useConnectionSuspect` keeps, which the
 * money confirmation's failure asks too.
 */
import { Trans } from '@lingui/react/macro';
import { useEffect, useRef, useSyncExternalStore, type ReactNode, type RefObject } from 'react';
import { connectionSuspect, onServerAnsweredChange } from '../api/serverAnswered.ts';
import { takeFocusIfNowhere } from './focusIsNowhere.ts';

type Props = {
  children: ReactNode;
  onRetry: () => void;
  news?: boolean;
  advise?: boolean;
  /**
   * What takes the focus from Try again, which goes with its notice when pressed: the screen's heading,
   * or the button the retry stands for (a month's Download PDF), kept while the screen loads again.
   */
  focusOnRetry?: RefObject<HTMLElement | null>;
};

export function RetryNotice({ children, onRetry, news = false, advise = false, focusOnRetry }: Props) {
  const retry = useRef<HTMLButtonElement>(null);
  useEffect(() => (news ? undefined : takeFocusIfNowhere(() => retry.current)), [news]);
  return (
    // Not atomic: when the phone goes on or off line only the advice that changed is read again, not
    // the whole notice with its button over whatever the user was doing.
    <div className="notice" role={news ? 'status' : 'alert'} aria-atomic="false">
      <p>
        {children}
        {advise ? (
          <>
            {' '}
            <ConnectionAdvice />
          </>
        ) : null}
      </p>
      <button
        ref={retry}
        type="button"
        className="button"
        onClick={() => {
          focusOnRetry?.current?.focus();
          onRetry();
        }}
      >
        <Trans>Try again</Trans>
      </button>
    </div>
  );
}

/**
 * After a failed call: check the connection when the phone says it has none, or when the last call got
 * no answer at all (Wi-Fi without internet still says online). A call also fails with an answer (a
 * gateway's error page): then that advice would send the user looking for a fault that is not theirs.
 * Follows the phone going on or off line and the next call's fate (useConnectionSuspect).
 */
function ConnectionAdvice() {
  return useConnectionSuspect() ? <Trans>Check your connection and try again.</Trans> : <Trans>Please try again.</Trans>;
}

const subscribe = (changed: () => void) => {
  window.addEventListener('online', changed);
  window.addEventListener('offline', changed);
  const stopFollowingAnswers = onServerAnsweredChange(changed);
  return () => {
    window.removeEventListener('online', changed);
    window.removeEventListener('offline', changed);
    stopFollowingAnswers();
  };
};

/**
 * The connection rule (`connectionSuspect`, src/shared/api/serverAnswered.ts: Wi-Fi without internet
 * still says online) as a hook that follows the phone going on or off line and the next call's fate.
 * ConnectionAdvice and the money confirmation's failure (MoneyConfirmationStep) both ask it; the error
 * screen asks the rule once. Kept here, not in a module of its own: that became a chunk of its own,
 * loaded with every first screen.
 */
export function useConnectionSuspect(): boolean {
  return useSyncExternalStore(subscribe, connectionSuspect);
}
