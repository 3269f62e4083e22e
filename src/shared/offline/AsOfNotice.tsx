/** Offline: what is shown is the account as it was when last fetched, said plainly, with a way to try again. */
import { Trans } from '@lingui/react/macro';
import { formatDate, formatTime } from '../format/date.ts';
import type { Locale } from '../format/locale.ts';

export function AsOfNotice({ asOf, locale, onRetry }: { asOf: string; locale: Locale; onRetry: () => void }) {
  const day = formatDate(asOf, locale);
  const time = formatTime(asOf, locale);
  return (
    <div className="notice" role="status">
      <p>
        <Trans>
          We can't reach Providers right now. This is what your account showed on {day} at {time}; it may have changed
          since.
        </Trans>
      </p>
      <button type="button" className="button" onClick={onRetry}>
        <Trans>Try again</Trans>
      </button>
    </div>
  );
}
