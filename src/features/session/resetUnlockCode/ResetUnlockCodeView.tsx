import { Trans, useLingui } from '@lingui/react/macro';
import { getRouteApi, useRouter } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { useRef, type FormEvent } from 'react';
import { fromPromise, type SnapshotFrom } from 'xstate';
import { isUnlockCodeReset, resetUnlockCodeMachine, stepOfResetUnlockCode, type ResetUnlockCodeEvent } from '../../../../machines/session/resetUnlockCode.ts';
import { ssnCheckShows } from '../../../../machines/shared/ssnCheck.ts';
import { useServices } from '../../../app/services.tsx';
import { StepIndicator } from '../../../shared/components/StepIndicator.tsx';
import { NewUnlockCodeFields, newUnlockCodesOf } from '../../../shared/components/NewUnlockCodeFields.tsx';
import { useFocusOnProblem } from '../../../shared/components/useFocusOnProblem.ts';
import { useHeadingFocus } from '../../../shared/components/useHeadingFocus.ts';
import { failureMessage, validationMessages } from '../../../shared/messages.ts';
import { SsnCheckStep } from '../../../shared/ssnCheck/SsnCheckStep.tsx';
import { routeStepOf, useStepParam } from '../../../shared/components/useStepParam.ts';
import { continueToApp, storeSession } from '../../../shared/sessionEffects.ts';
import { identityCalls } from '../../../shared/api/identityCalls.ts';
import { SubmitButton } from '../../../shared/components/SubmitButton.tsx';
import { ActionButton } from '../../../shared/components/ActionButton.tsx';
import { ResultHeading } from '../../../shared/screens/ResultHeading.tsx';
import { msg } from '@lingui/core/macro';

/** Result screens' headings, which title the tab while they are up (ResultHeading). */
const unlockCodeChangedTitle = msg`Unlock code changed`;

const resetUnlockCodeRoute = getRouteApi('/reset-unlock-code/{-$step}');

type Snapshot = SnapshotFrom<typeof resetUnlockCodeMachine>;
type StepProps = { state: Snapshot; send: (event: ResetUnlockCodeEvent) => void };

/** /reset-unlock-code/:step? (spec §2, §4): the SSN, then a new unlock code; then the remembered route or home. */
export function ResetUnlockCodeView() {
  const { session, api } = useServices();
  const router = useRouter();
  const { step: stepParam } = resetUnlockCodeRoute.useParams();
  const { redirect } = resetUnlockCodeRoute.useSearch();
  const reset = useActorRef(
    resetUnlockCodeMachine.provide({
      actors: {
        verifySsn: fromPromise(({ input }) => identityCalls(api).verifySsnWithRefreshToken(session.getSnapshot().context.refreshToken, input.ssn)),
        resetUnlockCode: fromPromise(({ input }) =>
          api.resetUnlockCode(session.getSnapshot().context.refreshToken, input.ssnToken, input.unlockCode),
        ),
      },
      actions: {
        storeSession: (_, answer) => storeSession(session, answer ?? {}),
        continueToApp: () => continueToApp(router, redirect),
      },
    }),
  );
  const state = useSelector(reset, (s) => s);
  const machineStep = useSelector(reset, (s) => (isUnlockCodeReset(s) ? null : stepOfResetUnlockCode(s)));
  useStepParam({
    routeStep: routeStepOf(stepParam),
    machineStep,
    goToStep: (step) => reset.send({ type: 'user.goToStep', step }),
    showStep: (step, replace) =>
      void router.navigate({ to: '/reset-unlock-code/{-$step}', params: { step: String(step) }, search: (previous: Record<string, unknown>) => previous, replace }),
    finished: state.hasTag('reset') || isUnlockCodeReset(state),
  });

  if (state.hasTag('reset') || isUnlockCodeReset(state)) return <Done busy={state.hasTag('busy')} onContinue={() => reset.send({ type: 'user.continue' })} />;
  return (
    <section className="screen" aria-labelledby="reset-unlock-code-title">
      <StepIndicator current={stepOfResetUnlockCode(state)} total={2} />
      {stepOfResetUnlockCode(state) === 1 ? <SsnStep key="ssn" state={state} send={reset.send} /> : <CodeStep key="code" state={state} send={reset.send} />}
    </section>
  );
}

function SsnStep({ state, send }: StepProps) {
  const { invalid, ...ssnShows } = ssnCheckShows(state);
  return (
    <SsnCheckStep
      titleId="reset-unlock-code-title"
      fieldId="unlock-reset-ssn"
      intro={<Trans>To reset your unlock code, please enter your Social Security number.</Trans>}
      askedAgain={
        state.hasTag('ssnExpired') ? <Trans>Your identity check has expired. Please enter your Social Security number again.</Trans> : null
      }
      {...ssnShows}
      problem={invalid ? state.context.fieldErrors.ssn : null}
      attempt={state.context}
      attemptsLeft={state.context.attemptsLeft}
      retryAt={state.context.retryAt}
      onSubmit={(ssn) => send({ type: 'user.submitSsn', ssn })}
    />
  );
}

function CodeStep({ state, send }: StepProps) {
  const { t, i18n } = useLingui();
  const heading = useHeadingFocus();
  const busy = state.hasTag('busy');
  const { fieldErrors } = state.context;
  const invalid = state.hasTag('invalid');
  const formRef = useRef<HTMLFormElement>(null);
  useFocusOnProblem(formRef, fieldErrors, invalid);
  const problem = (field: 'unlockCode' | 'unlockCodeConfirmation') => {
    const key = invalid ? fieldErrors[field] : undefined;
    return key ? i18n._(validationMessages[key]) : undefined;
  };

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    send({ type: 'user.submitCode', ...newUnlockCodesOf(event.currentTarget) });
  }

  return (
    <>
      <h1 id="reset-unlock-code-title" ref={heading} tabIndex={-1}>
        <Trans>Choose a new unlock code</Trans>
      </h1>
      <form ref={formRef} className="form" onSubmit={submit} noValidate aria-busy={busy}>
        <NewUnlockCodeFields
          unlockCode={{
            id: 'new-unlock-code',
            label: t`New unlock code`,
            hint: <Trans>Your unlock code is 4 digits. Avoid codes that are easy to guess, like 1234 or 1111.</Trans>,
            error: problem('unlockCode'),
          }}
          confirmation={{ id: 'confirm-unlock-code', label: t`Confirm new unlock code`, error: problem('unlockCodeConfirmation') }}
        />
        {state.hasTag('refused') ? (
          <p className="form-error" role="alert">
            <Trans>We couldn't save this unlock code. Please choose another one.</Trans>
          </p>
        ) : null}
        {state.hasTag('failed') ? (
          <p className="form-error" role="alert">
            {i18n._(failureMessage())}
          </p>
        ) : null}
        <SubmitButton unavailable={busy}>
          {busy ? <Trans>Saving…</Trans> : <Trans>Save unlock code</Trans>}
        </SubmitButton>
      </form>
    </>
  );
}

/** The confirmation: the new code is saved and the cardholder is signed in. */
function Done({ busy, onContinue }: { busy: boolean; onContinue: () => void }) {
  return (
    <section className="screen" aria-labelledby="reset-unlock-code-title">
      <ResultHeading id="reset-unlock-code-title" title={unlockCodeChangedTitle} />
      <p role="status">
        <Trans>Your unlock code has been changed. Use it the next time the app asks for your unlock code.</Trans>
      </p>
      <ActionButton unavailable={busy} onPress={onContinue}>
        <Trans>Continue</Trans>
      </ActionButton>
    </section>
  );
}
