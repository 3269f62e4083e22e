/** "Verify your identity": the SSN step both resets share (reset password step 2, reset unlock code step 1). */
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useRef, type FormEvent, type ReactNode } from 'react';
import type { ValidationMessage } from '../../../contract/rules.ts';
import { TextField } from '../components/TextField.tsx';
import { useFocusOnProblem } from '../components/useFocusOnProblem.ts';
import { useHeadingFocus } from '../components/useHeadingFocus.ts';
import { failureMessage, validationMessages } from '../messages.ts';
import { TooManyTriesNotice } from '../waitNotices.tsx';
import { SubmitButton } from '../components/SubmitButton.tsx';

type SsnCheckStepProps = {
  /** The heading's id (the screen is labelled by it). */
  titleId: string;
  fieldId: string;
  /** Why the SSN is asked for. */
  intro: ReactNode;
  /** Why it is asked again, when a later step sent the cardholder back (said as an alert). */
  askedAgain?: ReactNode;
  busy: boolean;
  /** The server's wait after too many tries. */
  waiting: boolean;
  /** The SSN's problem, shown while the chart is in its invalid state. */
  problem: ValidationMessage | null | undefined;
  /** New with each try (the chart's context): the same problem twice is pointed at twice. */
  attempt: unknown;
  mismatch: boolean;
  failed: boolean;
  attemptsLeft: number | null;
  retryAt: number | null;
  onSubmit: (ssn: string) => void;
};

export function SsnCheckStep({ titleId, fieldId, intro, askedAgain, busy, waiting, problem, attempt, mismatch, failed, attemptsLeft, retryAt, onSubmit }: SsnCheckStepProps) {
  const { t, i18n } = useLingui();
  const heading = useHeadingFocus();
  const formRef = useRef<HTMLFormElement>(null);
  useFocusOnProblem(formRef, attempt, Boolean(problem));

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onSubmit(String(new FormData(event.currentTarget).get('ssn') ?? ''));
  }

  return (
    <>
      <h1 id={titleId} ref={heading} tabIndex={-1}>
        <Trans>Verify your identity</Trans>
      </h1>
      <form ref={formRef} className="form" onSubmit={submit} noValidate aria-busy={busy}>
        <p>{intro}</p>
        {askedAgain ? (
          <p className="form-error" role="alert">
            {askedAgain}
          </p>
        ) : null}
        <TextField
          id={fieldId}
          name="ssn"
          type="password"
          label={t`Social Security number`}
          autoComplete="off"
          inputMode="numeric"
          maxLength={11}
          error={problem ? i18n._(validationMessages[problem]) : undefined}
        />
        <SsnProblems mismatch={mismatch} attemptsLeft={attemptsLeft} waiting={waiting} retryAt={retryAt} />
        {failed ? (
          <p className="form-error" role="alert">
            {i18n._(failureMessage())}
          </p>
        ) : null}
        <SubmitButton unavailable={busy || waiting}>
          {busy ? <Trans>Checking…</Trans> : <Trans>Continue</Trans>}
        </SubmitButton>
      </form>
    </>
  );
}

/** An SSN that does not match the account (with the tries left), or the server's wait after too many. */
function SsnProblems({ mismatch, attemptsLeft, waiting, retryAt }: { mismatch: boolean; attemptsLeft: number | null; waiting: boolean; retryAt: number | null }) {
  if (waiting) return <TooManyTriesNotice retryAt={retryAt} />;
  if (!mismatch) return null;
  return (
    <p className="form-error" role="alert">
      <Trans>That Social Security number doesn't match your account.</Trans>
      {attemptsLeft !== null && attemptsLeft > 0 ? (
        <>
          {' '}
          <Plural value={attemptsLeft} one="You have 1 more try." other="You have # more tries." />
        </>
      ) : null}
    </p>
  );
}
