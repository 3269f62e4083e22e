/**
 * No fresh answer (offline most often, or a server failure): what is shown is the account as it was
 * when last fetched, said plainly and true in both cases, with a way to try again.
 */
import { Trans } from '@lingui/react/macro';
import { RetryNotice } from '../components/RetryNotice.tsx';
import { formatDate, formatTime } from '../format/date.ts';
import type { Locale } from '../../../contract/shared/locale.ts';
import type { RefObject } from 'react';

/** `focusOnRetry`: the screen's heading; Try again goes with the notice while the account loads again. */
export function AsOfNotice({ asOf, locale, onRetry, focusOnRetry }: { asOf: string; locale: Locale; onRetry: () => void; focusOnRetry: RefObject<HTMLElement | null> }) {
  const day = formatDate(asOf, locale, 'sentence');
  const time = formatTime(asOf, locale);
  return (
    <RetryNotice news focusOnRetry={focusOnRetry} onRetry={onRetry}>
      <Trans>
        We couldn't get your latest account information. This is what your account showed on {day} at {time}; it may
        have changed since.
      </Trans>
    </RetryNotice>
  );
}
