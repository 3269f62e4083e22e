/** The texted code (spec §4, §8 MFA codes): split boxes with its problems, sent on Verify; the caller adds its links. */
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { digitsOnly, SplitCodeInput } from '../components/SplitCodeInput.tsx';
import { failureMessage } from '../messages.ts';
import { SubmitButton } from '../components/SubmitButton.tsx';
import { focusIsNowhere, takeFocusIfNowhere } from '../components/focusIsNowhere.ts';

type TextedCodeEntryProps = {
  id: string;
  /** The phone the code went to, formatted; empty when not known. */
  phone: string;
  /** Says where the code went instead of the phone (password reset: only if an account has the email). */
  sentNotice?: ReactNode;
  codeLength: number;
  invalid: boolean;
  wrongCode: boolean;
  /** The unexpected error. */
  failed: boolean;
  attemptsLeft: number | null;
  /** A call is under way: the code cannot be sent. */
  busy: boolean;
  /** The boxes cannot be changed either (they keep the focus: SplitCodeInput `readOnly`). */
  readOnly?: boolean;
  /** The button says Verifying… (sign-in, while the code is checked). */
  verifying?: boolean;
  /** A new code was asked for: the boxes start empty again. */
  resending?: boolean;
  /** The new code was sent: the form says so (and the first box takes the focus if it is nowhere). */
  resent: boolean;
  /** Says a new code went out without saying to whom (password reset), instead of "We sent you a new code." */
  resentNotice?: ReactNode;
  onSubmit: (code: string) => void;
  /** Links shown under the Verify button, inside the form. */
  children?: ReactNode;
};

export function TextedCodeEntry({ id, phone, sentNotice, codeLength, invalid, wrongCode, failed, attemptsLeft, busy, readOnly, verifying, resending, resent, resentNotice, onSubmit, children }: TextedCodeEntryProps) {
  const { t, i18n } = useLingui();
  const [code, setCode] = useState('');
  useEffect(() => {
    if (resending) setCode('');
  }, [resending]);
  // The first box takes the focus when it is nowhere: on arriving (the button that asked for the code
  // is gone; a screen's own heading focus, run after, wins when the screen opens here) and after "Send a
  // new code" (unavailable during its call), also when it failed (its error is read as an alert; a
  // failed Verify keeps the focus on Verify). A refused code takes it there from Verify, as a field in
  // error does (useFocusOnProblem): the boxes' error is read with them, ready to type again. Not when
  // "sent" goes (Send a new code pressed again, the focus let go): the call's outcome decides then.
  useEffect(() => {
    if (focusIsNowhere()) document.getElementById(id)?.focus();
  }, [id]);
  useEffect(() => {
    if (resent && focusIsNowhere()) document.getElementById(id)?.focus();
  }, [resent, id]);
  useEffect(() => (failed ? takeFocusIfNowhere(() => document.getElementById(id)) : undefined), [failed, id]);
  useEffect(() => {
    if (invalid || wrongCode) document.getElementById(id)?.focus();
  }, [invalid, wrongCode, attemptsLeft, id]);

  const codeProblem = invalid ? (
    t`Please enter the 6-digit code we texted you.`
  ) : wrongCode ? (
    // Without the tries left the code is no longer live (expired, voided, or spent by a first try whose
    // answer was lost): not called wrong, as it may have been right.
    attemptsLeft === null ? (
      <Trans>This code can't be used anymore. Please ask for a new code.</Trans>
    ) : (
      <>
        <Trans>This isn't the right code.</Trans>{' '}
        {attemptsLeft > 0 ? (
          <Plural value={attemptsLeft} one="You can try 1 more time." other="You can try # more times." />
        ) : (
          <Trans>Please ask for a new code.</Trans>
        )}
      </>
    )
  ) : undefined;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onSubmit(digitsOnly(code));
  }

  return (
    <form className="form" onSubmit={submit} noValidate aria-busy={busy}>
      {/* One item of the form's column: the empty status takes no gap of its own. */}
      <div>
        <p>{sentNotice ?? (phone ? <Trans>We texted a 6-digit code to <span className="nowrap">{phone}</span>.</Trans> : <Trans>We texted you a 6-digit code.</Trans>)}</p>
        <div role="status">{resent ? <p className="notice">{resentNotice ?? t`We sent you a new code.`}</p> : null}</div>
      </div>
      <SplitCodeInput id={id} label={t`Texted code`} length={codeLength} value={code} onChange={setCode} error={codeProblem} readOnly={readOnly} />
      {failed ? (
        <p className="form-error" role="alert">
          {i18n._(failureMessage())}
        </p>
      ) : null}
      <SubmitButton unavailable={busy}>
        {verifying ? <Trans>Verifying…</Trans> : <Trans>Verify</Trans>}
      </SubmitButton>
      {children}
    </form>
  );
}
