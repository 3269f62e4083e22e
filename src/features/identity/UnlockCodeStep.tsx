import { Trans, useLingui } from '@lingui/react/macro';
import { useRef, type FormEvent } from 'react';
import { NewUnlockCodeFields, newUnlockCodesOf } from '../../shared/components/NewUnlockCodeFields.tsx';
import { problemsOf, useFocusOnProblem, useHeadingFocus, type StepProps } from './stepSupport.ts';

/** Step 4: the 4-digit unlock code that opens the app later (spec §5: not an obvious one, confirmed). */
export function UnlockCodeStep({ state, send }: StepProps) {
  const { t, i18n } = useLingui();
  const heading = useHeadingFocus();
  const formRef = useRef<HTMLFormElement>(null);
  const invalid = state.hasTag('invalid');
  const { form } = state.context;
  const problem = problemsOf(state, invalid, i18n);
  useFocusOnProblem(formRef, state.context.fieldErrors, invalid);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    send({ type: 'user.submitUnlockCode', ...newUnlockCodesOf(event.currentTarget) });
  }

  return (
    <>
      <h1 id="register-title" ref={heading} tabIndex={-1}>
        <Trans>Choose an unlock code</Trans>
      </h1>
      <form ref={formRef} className="form" onSubmit={submit} noValidate>
        {/* Back at this step (from the agreements, or after a later step), the codes are as typed. */}
        <NewUnlockCodeFields
          unlockCode={{
            id: 'unlock-code',
            label: t`Unlock code`,
            hint: <Trans>You'll use this 4-digit code to open the app. Avoid codes that are easy to guess, like 1234.</Trans>,
            error: problem('unlockCode'),
            defaultValue: form.unlockCode,
          }}
          confirmation={{
            id: 'unlock-code-confirmation',
            label: t`Confirm unlock code`,
            error: problem('unlockCodeConfirmation'),
            defaultValue: form.unlockCodeConfirmation,
          }}
        />
        <button type="submit" className="button">
          <Trans>Continue</Trans>
        </button>
      </form>
    </>
  );
}
