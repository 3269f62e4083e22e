import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { phoneDigits, textedCodeLength } from '../../../contract/rules.ts';
import { resendsCode } from '../../../machines/identity/registration.ts';
import { textedCodeProblems } from '../../../machines/shared/textedCode.ts';
import { focusIsNowhere, letFocusGoThen } from '../../shared/components/focusIsNowhere.ts';
import { TextField } from '../../shared/components/TextField.tsx';
import { formatPhone } from '../../shared/format/phone.ts';
import { failureMessage } from '../../shared/messages.ts';
import { TextedCodeEntry } from '../../shared/textedCode/TextedCodeEntry.tsx';
import { TooManyCodesNotice, WaitToTryAgain } from '../../shared/waitNotices.tsx';
import { problemsOf, useFocusOnProblem, useHeadingFocus, type StepProps } from './stepSupport.ts';
import { SubmitButton } from '../../shared/components/SubmitButton.tsx';

/** The texted code's first box (SplitCodeInput gives it the entry's id). */
const codeBoxId = 'code';
const phoneFieldId = 'phone';

/** Step 2: the mobile phone, verified with a texted 6-digit code (spec §4, §5, §8 MFA codes). */
export function PhoneStep({ state, send }: StepProps) {
  const heading = useHeadingFocus();
  // Asking for a new code keeps the code form (its status then says the code was sent).
  const enteringCode = state.hasTag('textedCode') || resendsCode(state);
  return (
    <>
      <h1 id="register-title" ref={heading} tabIndex={-1}>
        <Trans>Verify your phone</Trans>
      </h1>
      {enteringCode ? <CodeForm state={state} send={send} /> : <PhoneForm state={state} send={send} />}
    </>
  );
}

function PhoneForm({ state, send }: StepProps) {
  const { t, i18n } = useLingui();
  const formRef = useRef<HTMLFormElement>(null);
  const { form, verifiedPhone, mfaToken, retryAt } = state.context;
  const [typedPhone, setTypedPhone] = useState(form.phone);
  const phone = formatPhone(form.phone);
  const at = (tag: 'invalid' | 'inUse' | 'cannotText' | 'landline' | 'tooManyLookups' | 'failed') => state.hasTag(tag);
  const waiting = state.hasTag('waiting');
  const busy = state.hasTag('busy');
  const alreadyVerified = mfaToken !== null && verifiedPhone === phoneDigits(typedPhone);
  // The wait holds back that number's codes only: another number (a typo corrected) can be sent at once.
  const heldBack = waiting && phoneDigits(typedPhone) === phoneDigits(form.phone);
  const problem = problemsOf(state, at('invalid'), i18n);
  const phoneProblem = at('inUse')
    ? t`This phone number is already used by another account.`
    : at('landline')
      ? t`Please enter a mobile phone number. We can't text a landline.`
      : problem('phone');
  const formProblem = useRef<HTMLDivElement>(null);
  const fieldProblem = at('invalid') || at('inUse') || at('landline');
  const refused = at('cannotText') || waiting || at('tooManyLookups') || at('failed');
  useFocusOnProblem(formRef, state.context, fieldProblem || refused, formProblem);
  // Back from the code form (Change phone number, whose button is gone): the number takes the focus,
  // ready to correct. Arriving at the step, the heading's focus, run after this, wins.
  useEffect(() => {
    if (focusIsNowhere()) document.getElementById(phoneFieldId)?.focus();
  }, []);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    send({ type: 'user.submitPhone', phone: typedPhone });
  }

  return (
    <form ref={formRef} className="form" onSubmit={submit} noValidate aria-busy={busy}>
      <p>
        <Trans>We'll text a 6-digit code to your mobile phone to make sure it's yours.</Trans>
      </p>
      {/* For the number it had verified: another one typed is a first verification. */}
      {state.context.verifyPhoneAgain && mfaToken === null && phoneDigits(typedPhone) === phoneDigits(form.phone) ? (
        <p className="notice">
          <Trans>For your security, please verify your phone again to go on.</Trans>
        </p>
      ) : null}
      <TextField
        id={phoneFieldId}
        name="phone"
        type="tel"
        label={t`Mobile phone number`}
        autoComplete="tel-national"
        inputMode="tel"
        maxLength={20}
        value={typedPhone}
        onChange={(event) => setTypedPhone(event.target.value)}
        error={phoneProblem}
      />
      {/* A refusal of the whole step (or a failure) takes the focus, as a field's does. */}
      <div ref={formProblem} tabIndex={-1}>
        {at('cannotText') ? (
          <p className="form-error" role="alert">
            <Trans>We weren't able to text a code to <span className="nowrap">{phone}</span>.</Trans>
          </p>
        ) : null}
        {waiting ? <TooManyCodesNotice retryAt={retryAt} /> : null}
        {at('tooManyLookups') ? (
          <p className="form-error" role="alert">
            <WaitToTryAgain retryAt={retryAt} />
          </p>
        ) : null}
        {at('failed') ? (
          <p className="form-error" role="alert">
            {i18n._(failureMessage())}
          </p>
        ) : null}
      </div>
      <SubmitButton unavailable={busy || heldBack}>
        {alreadyVerified ? <Trans>Continue</Trans> : <Trans>Send code</Trans>}
      </SubmitButton>
    </form>
  );
}

function CodeForm({ state, send }: StepProps) {
  const verifying = state.hasTag('verifying');
  const resending = resendsCode(state);
  return (
    <TextedCodeEntry
      id={codeBoxId}
      phone={formatPhone(state.context.form.phone)}
      codeLength={textedCodeLength}
      {...textedCodeProblems(state)}
      attemptsLeft={state.context.attemptsLeft}
      busy={verifying || resending}
      resending={resending}
      resent={state.hasTag('resent')}
      onSubmit={(code) => send({ type: 'user.submitCode', code })}
    >
      <div className="screen-links">
        <button type="button" className="link-button" disabled={verifying || resending} onClick={letFocusGoThen(() => send({ type: 'user.resendCode' }))}>
          <Trans>Send a new code</Trans>
        </button>
        <button type="button" className="link-button" disabled={verifying || resending} onClick={() => send({ type: 'user.changePhone' })}>
          <Trans>Change phone number</Trans>
        </button>
      </div>
    </TextedCodeEntry>
  );
}
