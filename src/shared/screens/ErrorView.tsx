import { Trans } from '@lingui/react/macro';
import { Link, type ErrorComponentProps } from '@tanstack/react-router';
import { isModuleNotFoundError } from '@tanstack/router-core';
import { ApiUnavailableError } from '../api/client.ts';
import { connectionSuspect } from '../api/serverAnswered.ts';
import { useHeadingFocus } from '../components/useHeadingFocus.ts';
import { errorTitle, useOwnTitle } from './documentTitle.ts';

/**
 * Whether the card API call the screen needed got no answer at all, or the phone is offline. Judged by
 * that call's own error when it is one: the last call of all (`connectionSuspect`) may be another,
 * answered meanwhile (the experiments call, still on its way when the screen's call failed).
 */
function connectionToBlame(error: unknown): boolean {
  if (error instanceof ApiUnavailableError) return error.httpStatus === null || !navigator.onLine;
  return connectionSuspect();
}

/**
 * A screen that failed to show (its code did not download over a weak connection, or a bug): say so
 * in the reader's language (spec §8 "Something went wrong."), with a retry and the way home. The
 * app's frame stays around it, and nothing the cardholder had saved is touched. When the screen's code
 * could not be downloaded (offline, a screen never opened before, so not kept on the phone), or what
 * it needed from the card API got no answer, it says the connection is what to check, not that
 * something unexpected happened.
 */
export function ErrorView({ error }: Pick<ErrorComponentProps, 'error'>) {
  const notDownloaded = isDownloadFailure(error) || connectionToBlame(error);
  const heading = useHeadingFocus();
  useOwnTitle(errorTitle);
  // The page is loaded again: a browser keeps a script import that failed failed for the page's
  // life, so only a new page asks the network again (embedded, the host hands the session over again).
  const retry = () => window.location.reload();
  return (
    <section className="screen" aria-labelledby="error-title">
      <h1 id="error-title" ref={heading} tabIndex={-1}>
        <Trans>Something went wrong.</Trans>
      </h1>
      <p>
        {/* The words of unexpectedErrorMessage (src/shared/messages.ts, one catalogue entry), written here
            so the entry does not load the forms' shared chunk that holds it. */}
        {notDownloaded ? <Trans>We couldn't open this screen. Check your connection and try again.</Trans> : <Trans>There was an unexpected error. Please try again.</Trans>}
      </p>
      <button type="button" className="button" onClick={retry}>
        <Trans>Try again</Trans>
      </button>
      <p>
        <Link to="/home">
          <Trans>Go to home</Trans>
        </Link>
      </p>
    </section>
  );
}

/**
 * A screen's code or its stylesheet did not download: the browser's words for a failed `import()`
 * (as TanStack reads them) or Vite's for a stylesheet that a screen's code waits for, which fails first.
 */
export const isDownloadFailure = (error: unknown): boolean => isModuleNotFoundError(error) || (error instanceof Error && /^Unable to preload CSS/.test(error.message));
