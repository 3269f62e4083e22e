/** The texts of the server's waits (spec §9: too many tries or codes), shared by every flow that waits. */
import { Plural, Trans } from '@lingui/react/macro';
import { minutesUntil } from './messages.ts';

/**
 * "For your security, please wait N minutes before trying again." until `retryAt`; from two hours on in
 * whole hours, rounded up (the sign-in and SSN limits' waits grow to 8 hours: "480 minutes" is hard to
 * read). Not sooner: "2 hours" for 61 minutes nearly doubled it, and the SSN limit's 80 minutes read as
 * 2 hours; from two hours on the rounding adds under half.
 */
/** From two hours on a wait is said in whole hours, rounded up (WaitToTryAgain says why). */
const saidInHours = (minutes: number) => minutes >= 120;

export function WaitToTryAgain({ retryAt }: { retryAt: number | null }) {
  const minutes = minutesUntil(retryAt);
  return saidInHours(minutes) ? (
    <Plural
      value={Math.ceil(minutes / 60)}
      one="For your security, please wait 1 hour before trying again."
      other="For your security, please wait # hours before trying again."
    />
  ) : (
    <Plural
      value={minutes}
      one="For your security, please wait 1 minute before trying again."
      other="For your security, please wait # minutes before trying again."
    />
  );
}

/**
 * Too many texted codes (201): the notice with the wait before a new code may be asked for (a
 * registration phone's codes past their ceiling wait up to 8 hours: said in hours, as WaitToTryAgain).
 */
export function TooManyCodesNotice({ retryAt }: { retryAt: number | null }) {
  const minutes = minutesUntil(retryAt);
  return (
    <div className="notice" role="alert">
      <p className="notice-title">
        <Trans>Too many codes</Trans>
      </p>
      <p>
        {saidInHours(minutes) ? (
          <Plural
            value={Math.ceil(minutes / 60)}
            one="For your security, please wait 1 hour before asking for a new code."
            other="For your security, please wait # hours before asking for a new code."
          />
        ) : (
          <Plural
            value={minutes}
            one="For your security, please wait 1 minute before asking for a new code."
            other="For your security, please wait # minutes before asking for a new code."
          />
        )}
      </p>
    </div>
  );
}

/** Too many wrong tries (the SSN step): the notice with the wait before trying again. */
export function TooManyTriesNotice({ retryAt }: { retryAt: number | null }) {
  return (
    <div className="notice" role="alert">
      <p className="notice-title">
        <Trans>Too many tries</Trans>
      </p>
      <p>
        <WaitToTryAgain retryAt={retryAt} />
      </p>
    </div>
  );
}
