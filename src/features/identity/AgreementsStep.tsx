import { Trans, useLingui } from '@lingui/react/macro';
import { useRef, type FormEvent } from 'react';
import { agreed } from '../../../contract/identity/types.ts';
import { useAgreementReader } from '../../shared/agreements/AgreementDialog.tsx';
import { ReadAgreementButton } from '../../shared/agreements/AgreementLinks.tsx';
import { FeeDisclosure } from '../../shared/agreements/FeeDisclosure.tsx';
import { CheckboxField } from '../../shared/components/CheckboxField.tsx';
import { failureMessage } from '../../shared/messages.ts';
import { WaitToTryAgain } from '../../shared/waitNotices.tsx';
import { problemsOf, useFocusOnProblem, useHeadingFocus, type StepProps } from './stepSupport.ts';

/** Step 5: E-Sign, Terms of use and the Cardholder Agreement (spec §3, §5), then the application is sent. */
export function AgreementsStep({ state, send }: StepProps) {
  const { t, i18n } = useLingui();
  const heading = useHeadingFocus();
  const formRef = useRef<HTMLFormElement>(null);
  const { legal } = state.context.form;
  const invalid = state.hasTag('invalid');
  const failed = state.hasTag('failed');
  const tooManyLookups = state.hasTag('tooManyLookups');
  const problem = problemsOf(state, invalid, i18n);
  const agreements = useAgreementReader();
  useFocusOnProblem(formRef, state.context.fieldErrors, invalid);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    send({
      type: 'user.submitAgreements',
      esign: data.get('esign') !== null,
      terms: data.get('terms') !== null,
      cardholder3: data.get('cardholder3') !== null,
    });
  }

  return (
    <>
      <h1 id="register-title" ref={heading} tabIndex={-1}>
        <Trans>Review and accept the agreements</Trans>
      </h1>
      <FeeDisclosure />
      <p>
        <Trans>To open your Providers account, please read and accept each of these agreements.</Trans>
      </p>
      <form ref={formRef} className="form" onSubmit={submit} noValidate>
        <fieldset className="agreements">
          <legend className="visually-hidden">
            <Trans>Agreements</Trans>
          </legend>
          <CheckboxField
            id="agree-esign"
            name="esign"
            label={t`I agree to the E-Sign Agreement`}
            defaultChecked={legal.esign === agreed}
            error={problem('esign')}
          />
          <ReadAgreementButton kind="esign" onOpen={agreements.open} />
          <CheckboxField
            id="agree-terms"
            name="terms"
            label={t`I agree to the Terms of use`}
            defaultChecked={legal.terms === agreed}
            error={problem('terms')}
          />
          <ReadAgreementButton kind="terms" onOpen={agreements.open} />
          <CheckboxField
            id="agree-cardholder"
            name="cardholder3"
            label={t`I agree to the Cardholder Agreement`}
            defaultChecked={legal.cardholder3 === agreed}
            error={problem('cardholder3')}
          />
          <ReadAgreementButton kind="cardholder3" onOpen={agreements.open} />
        </fieldset>
        {failed ? (
          <div className="form-error" role="alert">
            <p>{i18n._(failureMessage())}</p>
            <p>
              <Trans>Nothing you entered was lost.</Trans>
            </p>
          </div>
        ) : null}
        {tooManyLookups ? (
          <p className="form-error" role="alert">
            <WaitToTryAgain retryAt={state.context.retryAt} />
          </p>
        ) : null}
        <button type="submit" className="button">
          <Trans>Agree and open my account</Trans>
        </button>
      </form>
      {agreements.dialog}
    </>
  );
}
