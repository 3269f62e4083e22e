import { Trans, useLingui } from '@lingui/react/macro';
import { useRef, useState, type FormEvent } from 'react';
import type { PersonalInfo } from '../../../machines/identity/registration.ts';
import { TextField } from '../../shared/components/TextField.tsx';
import { failureMessage } from '../../shared/messages.ts';
import { WaitToTryAgain } from '../../shared/waitNotices.tsx';
import { fieldPropsOf } from './fieldProps.ts';
import { dobInWords, maskDob } from './masks.ts';
import type { Locale } from '../../../contract/shared/locale.ts';
import { problemsOf, useFocusOnProblem, useHeadingFocus, type StepProps } from './stepSupport.ts';
import { SubmitButton } from '../../shared/components/SubmitButton.tsx';

/** Step 1: legal name, date of birth, SSN and email (spec §3, §5); the email must not belong to an account. */
export function PersonalInfoStep({ state, send }: StepProps) {
  const { t, i18n } = useLingui();
  const heading = useHeadingFocus();
  const formRef = useRef<HTMLFormElement>(null);
  const { form } = state.context;
  const [dob, setDob] = useState(form.dob);
  const invalid = state.hasTag('invalid');
  const emailTaken = state.hasTag('emailTaken');
  const failed = state.hasTag('failed');
  const tooManyLookups = state.hasTag('tooManyLookups');
  const ssnNeeded = state.hasTag('ssnNeeded');
  const checking = state.hasTag('busy');
  const problem = problemsOf(state, invalid, i18n);
  const field = fieldPropsOf(state, problem);
  const emailProblem = emailTaken ? t`This email is already used by a Providers account.` : problem('email');
  const dobWords = dobInWords(dob, i18n.locale as Locale);
  // The date's problem is the date sent's: typed again (and read back in words), it no longer stands.
  const [dobSent, setDobSent] = useState(form.dob);
  useFocusOnProblem(formRef, state.context.fieldErrors, invalid || emailTaken);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setDobSent(dob);
    const data = new FormData(event.currentTarget);
    const text = (name: keyof PersonalInfo) => String(data.get(name) ?? '');
    send({
      type: 'user.submitPersonalInfo',
      firstName: text('firstName'),
      middleName: text('middleName'),
      lastName: text('lastName'),
      dob,
      ssn: text('ssn'),
      email: text('email'),
    });
  }

  return (
    <>
      <h1 id="register-title" ref={heading} tabIndex={-1}>
        <Trans>Tell us about yourself</Trans>
      </h1>
      {ssnNeeded ? (
        <p className="notice" role="status">
          <Trans>For your security, please enter your Social Security number again.</Trans>
        </p>
      ) : (
        <p>
          <Trans>Use your legal name, as it appears on your Social Security card.</Trans>
        </p>
      )}
      <form ref={formRef} className="form" onSubmit={submit} noValidate aria-busy={checking}>
        <TextField {...field('firstName')} id="first-name" label={t`First name`} autoComplete="given-name" maxLength={50} />
        <TextField {...field('middleName')} id="middle-name" label={t`Middle name (optional)`} autoComplete="additional-name" maxLength={50} />
        <TextField {...field('lastName')} id="last-name" label={t`Last name`} autoComplete="family-name" maxLength={50} />
        <TextField
          id="dob"
          name="dob"
          label={t`Date of birth (MM/DD/YYYY)`}
          autoComplete="bday"
          inputMode="numeric"
          placeholder={t`MM/DD/YYYY`}
          maxLength={10}
          value={dob}
          onChange={(event) => setDob(maskDob(event.target.value))}
          hint={dobWords ? <Trans>That's {dobWords}.</Trans> : undefined}
          error={dob === dobSent ? problem('dob') : undefined}
        />
        <TextField {...field('ssn')} label={t`Social Security number`} autoComplete="off" inputMode="numeric" maxLength={11} />
        <TextField {...field('email')} type="email" label={t`Email`} autoComplete="email" inputMode="email" maxLength={254} error={emailProblem} />
        {failed ? (
          <p className="form-error" role="alert">
            {i18n._(failureMessage())}
          </p>
        ) : null}
        {tooManyLookups ? (
          <p className="form-error" role="alert">
            <WaitToTryAgain retryAt={state.context.retryAt} />
          </p>
        ) : null}
        <SubmitButton unavailable={checking}>
          <Trans>Continue</Trans>
        </SubmitButton>
      </form>
    </>
  );
}
