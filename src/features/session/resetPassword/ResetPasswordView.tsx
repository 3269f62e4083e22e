import { Trans, useLingui } from '@lingui/react/macro';
import { getRouteApi, Link, useRouter, useRouterState } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { fromPromise } from 'xstate';
import {
  doneStep,
  resetPasswordMachine,
  stepOfResetPassword,
  wentBackToSignIn,
  type ResetPasswordEvent,
  type ResetPasswordSnapshot,
} from '../../../../machines/session/resetPassword.ts';
import { ssnCheckShows } from '../../../../machines/shared/ssnCheck.ts';
import { textedCodeProblems } from '../../../../machines/shared/textedCode.ts';
import { textedCodeLength } from '../../../../contract/rules.ts';
import { TextedCodeEntry } from '../../../shared/textedCode/TextedCodeEntry.tsx';
import { thenSignInParam, type HandedOver } from './thenSignIn.ts';
import { useServices } from '../../../app/services.tsx';
import { StepIndicator } from '../../../shared/components/StepIndicator.tsx';
import { PasswordField } from '../../../shared/components/PasswordField.tsx';
import { TextField } from '../../../shared/components/TextField.tsx';
import { useFocusOnProblem } from '../../../shared/components/useFocusOnProblem.ts';
import { focusIsNowhere, letFocusGoThen } from '../../../shared/components/focusIsNowhere.ts';
import { useHeadingFocus } from '../../../shared/components/useHeadingFocus.ts';
import { SsnCheckStep } from '../../../shared/ssnCheck/SsnCheckStep.tsx';
import { failureMessage, validationMessages } from '../../../shared/messages.ts';
import { TooManyCodesNotice, WaitToTryAgain } from '../../../shared/waitNotices.tsx';
import { routeStepOf, useStepParam } from '../../../shared/components/useStepParam.ts';
import { identityCalls } from '../../../shared/api/identityCalls.ts';
import { SubmitButton } from '../../../shared/components/SubmitButton.tsx';
import { ResultHeading } from '../../../shared/screens/ResultHeading.tsx';
import { msg } from '@lingui/core/macro';

/** Result screens' headings, which title the tab while they are up (ResultHeading). */
const passwordChangedTitle = msg`Password changed`;

const formSteps = 3;
const resetPasswordRoute = getRouteApi('/reset-password/{-$step}');

/** /reset-password/:step? (spec §2, §4): email, texted code and SSN, new password, then step 4 (done) or sign-in. */
export function ResetPasswordView() {
  const { api } = useServices();
  const router = useRouter();
  const { step: stepParam } = resetPasswordRoute.useParams();
  const { then } = resetPasswordRoute.useSearch();
  // Opened again at step 2 (a reload): the email its code was texted for, kept in that history entry.
  const [codeSentTo] = useState(() => (routeStepOf(stepParam) === 2 ? codeSentToOf(router.state.location.state) : null));
  const resetPassword = useActorRef(
    resetPasswordMachine.provide({
      actors: {
        sendResetCode: fromPromise(({ input }) => api.sendResetCode(input.email)),
        verifyResetCode: fromPromise(({ input }) => api.verifyResetCode(input.email, input.code)),
        verifySsn: fromPromise(({ input }) => identityCalls(api).verifySsn(input.email, input.ssn, input.mfaToken)),
        changePassword: fromPromise(({ input }) => api.changePassword(input)),
      },
      actions: {
        goToSignIn: (_, { email }) =>
          void router.navigate({
            to: '/signin/{-$step}',
            params: { step: undefined },
            state: (previous) => ({ ...previous, passwordChanged: true, email }) satisfies HandedOver,
            replace: true,
          }),
      },
    }),
    { input: { thenSignIn: then === thenSignInParam.then, codeSentTo } },
  );
  const state = useSelector(resetPassword, (s) => s);
  const machineStep = useSelector(resetPassword, (s) => (wentBackToSignIn(s) ? null : stepOfResetPassword(s)));
  useStepParam({
    routeStep: routeStepOf(stepParam),
    machineStep,
    goToStep: (step) => resetPassword.send({ type: 'user.goToStep', step }),
    showStep: (step, replace) => {
      const { email } = resetPassword.getSnapshot().context;
      void router.navigate({
        to: '/reset-password/{-$step}',
        params: { step: String(step) },
        search: (previous: Record<string, unknown>) => previous,
        state: (previous) => (step === 2 ? ({ ...previous, resetCodeSentTo: email } satisfies CodeSent) : previous),
        replace,
      });
    },
    finished: machineStep === doneStep,
  });

  const step = stepOfResetPassword(state);
  if (step === doneStep) return <Done email={state.context.email} />;
  return (
    <section className="screen" aria-labelledby="reset-password-title">
      <StepIndicator current={step} total={formSteps} />
      {step === 1 ? (
        <EmailStep key="email" state={state} send={resetPassword.send} />
      ) : step === 2 && state.matches('code') ? (
        <CodeStep key="code" state={state} send={resetPassword.send} />
      ) : step === 2 ? (
        <SsnStep key="ssn" state={state} send={resetPassword.send} />
      ) : (
        <PasswordStep key="password" state={state} send={resetPassword.send} />
      )}
    </section>
  );
}

/** Step 2's history entry holds the email its code was texted for: a reload there comes back to the code. Never the address (it would be in logs). */
type CodeSent = { resetCodeSentTo?: string };
const codeSentToOf = (state: unknown) => {
  const email = (state as CodeSent | undefined)?.resetCodeSentTo;
  return typeof email === 'string' ? email : null;
};

type StepProps = { state: ResetPasswordSnapshot; send: (event: ResetPasswordEvent) => void };

function EmailStep({ state, send }: StepProps) {
  const { t, i18n } = useLingui();
  const heading = useHeadingFocus();
  const busy = state.hasTag('busy');
  const { fieldError, email } = state.context;
  // The email typed on sign-in before "Forgot your password?", until one is sent from here.
  const typedOnSignIn = useRouterState({ select: (s) => (s.location.state as HandedOver).email });
  const invalid = state.hasTag('invalid');
  const formRef = useRef<HTMLFormElement>(null);
  useFocusOnProblem(formRef, state.context, invalid);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    send({ type: 'user.submitEmail', email: String(new FormData(event.currentTarget).get('email') ?? '') });
  }

  return (
    <>
      <h1 id="reset-password-title" ref={heading} tabIndex={-1}>
        <Trans>Reset your password</Trans>
      </h1>
      <form ref={formRef} className="form" onSubmit={submit} noValidate aria-busy={busy}>
        <p>
          <Trans>Enter the email address of your Providers account.</Trans>
        </p>
        <TextField
          id="reset-email"
          name="email"
          type="email"
          label={t`Email`}
          autoComplete="email"
          inputMode="email"
          defaultValue={email || typedOnSignIn}
          error={invalid && fieldError ? i18n._(validationMessages[fieldError]) : undefined}
        />
        {state.hasTag('codeExpired') ? (
          <p className="form-error" role="alert">
            <Trans>Your code has expired. Please continue to get a new one.</Trans>
          </p>
        ) : null}
        {state.hasTag('failed') ? (
          <p className="form-error" role="alert">
            {i18n._(failureMessage())}
          </p>
        ) : null}
        {state.hasTag('tooManyLookups') ? (
          <p className="form-error" role="alert">
            <WaitToTryAgain retryAt={state.context.retryAt} />
          </p>
        ) : null}
        <SubmitButton unavailable={busy}>
          {busy ? <Trans>Checking…</Trans> : <Trans>Continue</Trans>}
        </SubmitButton>
      </form>
      <p className="screen-links">
        {/* The email typed here goes back with it, as sign-in's "Forgot your password?" brought it (the same expression there, inline: a shared helper cost sign-in's first load 37 B). */}
        <Link
          to="/signin/{-$step}"
          params={{ step: undefined }}
          state={(previous) => ({ ...previous, email: formRef.current?.querySelector<HTMLInputElement>('[name="email"]')?.value }) satisfies HandedOver}
        >
          <Trans>Back to sign in</Trans>
        </Link>
      </p>
    </>
  );
}

/** Step 2's texted code. The screen never says whether the email has an account. */
function CodeStep({ state, send }: StepProps) {
  const heading = useHeadingFocus();
  const busy = state.hasTag('busy');
  const waiting = state.hasTag('waiting');
  // "Too many codes" replaces the form after Verify or Send a new code, which went with it: the heading
  // takes the focus back, the notice under it.
  useEffect(() => {
    if (waiting && focusIsNowhere()) heading.current?.focus();
  }, [waiting, heading]);
  return (
    <>
      <h1 id="reset-password-title" ref={heading} tabIndex={-1}>
        <Trans>Enter your code</Trans>
      </h1>
      {waiting ? (
        <TooManyCodesNotice retryAt={state.context.retryAt} />
      ) : (
        <TextedCodeEntry
          id="reset-code"
          phone=""
          sentNotice={<Trans>If an account uses {state.context.email}, we texted a 6-digit code to its phone.</Trans>}
          codeLength={textedCodeLength}
          {...textedCodeProblems(state)}
          attemptsLeft={state.context.attemptsLeft}
          busy={busy}
          readOnly={busy}
          verifying={state.hasTag('verifying')}
          resending={state.hasTag('resending')}
          resent={state.hasTag('resent')}
          // The card API answers the same whether or not an account has the email: so does the screen.
          resentNotice={<Trans>If an account uses {state.context.email}, we texted a new code to its phone.</Trans>}
          onSubmit={(code) => send({ type: 'user.submitCode', code })}
        />
      )}
      <p className="screen-links">
        {waiting ? null : (
          <button type="button" className="link-button" disabled={busy} onClick={letFocusGoThen(() => send({ type: 'user.resendCode' }))}>
            <Trans>Send a new code</Trans>
          </button>
        )}
        <Link to="/reset-password/{-$step}" params={{ step: '1' }} search={(previous: Record<string, unknown>) => previous}>
          <Trans>Use another email</Trans>
        </Link>
      </p>
    </>
  );
}

function SsnStep({ state, send }: StepProps) {
  const { invalid, ...ssnShows } = ssnCheckShows(state);
  return (
    <SsnCheckStep
      titleId="reset-password-title"
      fieldId="reset-ssn"
      intro={<Trans>For your security, please enter your Social Security number.</Trans>}
      {...ssnShows}
      problem={invalid ? state.context.fieldError : null}
      attempt={state.context}
      attemptsLeft={state.context.attemptsLeft}
      retryAt={state.context.retryAt}
      onSubmit={(ssn) => send({ type: 'user.submitSsn', ssn })}
    />
  );
}

function PasswordStep({ state, send }: StepProps) {
  const { t, i18n } = useLingui();
  const heading = useHeadingFocus();
  const busy = state.hasTag('busy');
  const { fieldError } = state.context;
  const invalid = state.hasTag('invalid');
  const formRef = useRef<HTMLFormElement>(null);
  useFocusOnProblem(formRef, state.context, invalid);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    send({ type: 'user.submitPassword', password: String(new FormData(event.currentTarget).get('password') ?? '') });
  }

  return (
    <>
      <h1 id="reset-password-title" ref={heading} tabIndex={-1}>
        <Trans>Choose a new password</Trans>
      </h1>
      <form ref={formRef} className="form" onSubmit={submit} noValidate aria-busy={busy}>
        {/* The account the new password is for, typed on the first step: a password manager saves the
            new password under it (Chromium's "Create amazing password forms": hidden fields for implicit
            information), and offers it on the next sign-in. */}
        <input type="email" name="username" autoComplete="username" value={state.context.email} readOnly hidden />
        <PasswordField
          id="new-password"
          name="password"
          label={t`New password`}
          hint={<Trans>Use at least 8 characters, with no spaces.</Trans>}
          autoComplete="new-password"
          error={invalid && fieldError ? i18n._(validationMessages[fieldError]) : undefined}
        />
        {state.hasTag('failed') ? (
          <p className="form-error" role="alert">
            {i18n._(failureMessage())}
          </p>
        ) : null}
        <SubmitButton unavailable={busy}>
          {busy ? <Trans>Changing your password…</Trans> : <Trans>Change password</Trans>}
        </SubmitButton>
      </form>
    </>
  );
}

/** Step 4, the done step: its Sign in link hands the email over, so it is not typed a third time. */
function Done({ email }: { email: string }) {
  return (
    <section className="screen" aria-labelledby="reset-password-title" data-step={doneStep}>
      <ResultHeading id="reset-password-title" title={passwordChangedTitle} />
      <p role="status">
        <Trans>Your password has been changed.</Trans>
      </p>
      <p className="screen-links">
        <Link to="/signin/{-$step}" params={{ step: undefined }} state={(previous) => ({ ...previous, email }) satisfies HandedOver} className="button">
          <Trans>Sign in</Trans>
        </Link>
      </p>
    </section>
  );
}
