import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import { useRef, useState, type FormEvent } from 'react';
import type { Address } from '../../../contract/shared/address.ts';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import { offersOptOut } from '../../../machines/identity/registration.ts';
import { SelectField } from '../../shared/components/SelectField.tsx';
import { TextField } from '../../shared/components/TextField.tsx';
import { WaitToTryAgain } from '../../shared/waitNotices.tsx';
import { addressMessages, failureMessage } from '../../shared/messages.ts';
import { fieldPropsOf } from './fieldProps.ts';
import { maskZip } from './masks.ts';
import { statesFor } from './stateNames.ts';
import { problemsOf, useFocusOnProblem, useHeadingFocus, type StepProps } from './stepSupport.ts';
import { SubmitButton } from '../../shared/components/SubmitButton.tsx';

const unitCodes: readonly number[] = [StatusCode.ADDRESS_UNIT_INCORRECT, StatusCode.ADDRESS_UNIT_REQUIRED];
/** Refusals of what the street line says (a PO Box, "General Delivery"): shown on, and marking, that field. */
const streetCodes: readonly number[] = [StatusCode.ADDRESS_PO_BOX, StatusCode.ADDRESS_GENERAL_DELIVERY];

/** Step 3: the legal (residential) address, checked by the address service (spec §3, §5, §8 codes 300-307). */
export function AddressStep({ state, send }: StepProps) {
  if (state.hasTag('noLegalAddress')) return <NoLegalAddress send={send} />;
  return <AddressForm state={state} send={send} />;
}

function AddressForm({ state, send }: StepProps) {
  const { t, i18n } = useLingui();
  const heading = useHeadingFocus();
  const formRef = useRef<HTMLFormElement>(null);
  const { form, addressCode } = state.context;
  const [zip, setZip] = useState(form.zip);
  const at = (tag: 'invalid' | 'rejected' | 'tooManyLookups' | 'failed') => state.hasTag(tag);
  const verifying = state.hasTag('busy');
  const problem = problemsOf(state, at('invalid'), i18n);
  const field = fieldPropsOf(state, problem);
  const rejection = at('rejected') && addressCode !== null ? addressMessages[addressCode] : undefined;
  const unitRejected = rejection !== undefined && addressCode !== null && unitCodes.includes(addressCode);
  const streetRejected = rejection !== undefined && addressCode !== null && streetCodes.includes(addressCode);
  const canOptOut = offersOptOut(state);
  const formProblem = useRef<HTMLDivElement>(null);
  useFocusOnProblem(formRef, state.context, at('invalid') || at('rejected') || at('tooManyLookups') || at('failed'), formProblem);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const text = (name: keyof Address) => String(data.get(name) ?? '');
    send({ type: 'user.submitAddress', street1: text('street1'), street2: text('street2'), city: text('city'), state: text('state'), zip });
  }

  return (
    <>
      <h1 id="register-title" ref={heading} tabIndex={-1}>
        <Trans>Your legal address</Trans>
      </h1>
      <p>
        <Trans>The residential address where you live. We can't accept PO Boxes or work addresses.</Trans>
      </p>
      <form ref={formRef} className="form" onSubmit={submit} noValidate aria-busy={verifying}>
        <TextField
          {...field('street1')}
          label={t`Street address`}
          autoComplete="address-line1"
          maxLength={100}
          error={streetRejected && rejection ? i18n._(rejection) : problem('street1')}
        />
        <TextField
          {...field('street2')}
          // Once the address check asks for the unit (301 wrong, 302 missing), it is no longer optional.
          label={unitRejected ? t`Apartment or unit` : t`Apartment or unit (optional)`}
          autoComplete="address-line2"
          maxLength={50}
          error={unitRejected && rejection ? i18n._(rejection) : problem('street2')}
        />
        <TextField {...field('city')} label={t`City`} autoComplete="address-level2" maxLength={50} />
        <SelectField {...field('state')} label={t`State`} autoComplete="address-level1">
          <option value="">{t`Choose a state`}</option>
          {statesFor(i18n.locale === 'es' ? 'es' : 'en').map(({ code, name }) => (
            <option key={code} value={code}>
              {name}
            </option>
          ))}
        </SelectField>
        <TextField
          id="zip"
          name="zip"
          label={t`ZIP code`}
          autoComplete="postal-code"
          inputMode="numeric"
          maxLength={10}
          value={zip}
          onChange={(event) => setZip(maskZip(event.target.value))}
          error={problem('zip')}
        />
        {/* A refusal of the whole address (or a failure) takes the focus, as a field's does. */}
        <div ref={formProblem} tabIndex={-1}>
          {rejection && !unitRejected && !streetRejected ? (
            <p className="form-error" role="alert">
              {i18n._(rejection)}
            </p>
          ) : null}
          {at('tooManyLookups') ? (
            <p className="form-error" role="alert">
              <WaitToTryAgain retryAt={state.context.retryAt} />
            </p>
          ) : null}
          {at('failed') ? (
            <p className="form-error" role="alert">
              {i18n._(failureMessage())}
            </p>
          ) : null}
        </div>
        {canOptOut ? (
          <button type="button" className="link-button opt-out" onClick={() => send({ type: 'user.optOut' })}>
            <Trans>If you don’t have a legal address, tap here.</Trans>
          </button>
        ) : null}
        <SubmitButton unavailable={verifying}>
          <Trans>Continue</Trans>
        </SubmitButton>
      </form>
    </>
  );
}

/** Opting out of a legal address: an account can only be opened online with a residential address. */
function NoLegalAddress({ send }: Pick<StepProps, 'send'>) {
  const heading = useHeadingFocus();
  return (
    <>
      <h1 id="register-title" ref={heading} tabIndex={-1}>
        <Trans>A residential address is needed</Trans>
      </h1>
      <p>
        <Trans>
          To open a Providers account online, we need your legal address: the residential address where you live. We
          can't open an account online without one.
        </Trans>
      </p>
      <p>
        <Trans>If you have questions, our support team can help.</Trans>
      </p>
      <div className="screen-links">
        <button type="button" className="button" onClick={() => send({ type: 'user.backToAddress' })}>
          <Trans>Back to the address form</Trans>
        </button>
        <Link to="/customer-support">
          <Trans>Contact support</Trans>
        </Link>
      </div>
    </>
  );
}
