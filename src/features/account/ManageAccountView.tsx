import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { useRef, type FormEvent } from 'react';
import { fromPromise } from 'xstate';
import type { ValidationMessage } from '../../../contract/rules.ts';
import { changeUnlockCodeMachine } from '../../../machines/account/changeUnlockCode.ts';
import { agreementKinds } from '../../../contract/identity/types.ts';
import { useServices } from '../../app/services.tsx';
import { useAgreementReader } from '../../shared/agreements/AgreementDialog.tsx';
import { ReadAgreementButton } from '../../shared/agreements/AgreementLinks.tsx';
import { FeeDisclosure } from '../../shared/agreements/FeeDisclosure.tsx';
import { NewUnlockCodeFields, newUnlockCodesOf, UnlockCodeField } from '../../shared/components/NewUnlockCodeFields.tsx';
import { useFocusOnProblem } from '../../shared/components/useFocusOnProblem.ts';
import { useHeadingFocus } from '../../shared/components/useHeadingFocus.ts';
import { failureMessage, validationMessages } from '../../shared/messages.ts';
import { SubmitButton } from '../../shared/components/SubmitButton.tsx';

/**
 * /manage-account (spec §2, access token): change the unlock code (spec §7 /set-unlock-code), proved
 * with the current one. The form never leaves the screen while saving, so a session that expires
 * meanwhile resumes with what was typed.
 */
export function ManageAccountView() {
  const { api, session } = useServices();
  const { t, i18n } = useLingui();
  const heading = useHeadingFocus();
  const agreements = useAgreementReader();
  const form = useRef<HTMLFormElement>(null);
  const change = useActorRef(
    changeUnlockCodeMachine.provide({
      actors: { setUnlockCode: fromPromise(({ input }) => api.setUnlockCode(input)) },
      actions: {
        clearForm: () => form.current?.reset(),
        requireSignIn: () => session.send({ type: 'session.signInRequired', unlockCodeLocked: true }),
      },
    }),
  );
  const state = useSelector(change, (s) => s);
  const saving = state.hasTag('busy');
  const { fieldErrors, attemptsLeft } = state.context;
  const at = (tag: 'invalid' | 'mismatch' | 'wrongCurrentCode' | 'refused' | 'failed' | 'saved') => state.hasTag(tag);

  const said = (key: ValidationMessage | undefined) => (key ? i18n._(validationMessages[key]) : undefined);
  // The unlock screen's words: this wrong code counted against the same attempts.
  const currentCodeError =
    at('wrongCurrentCode') && attemptsLeft !== null ? (
      <>
        <Trans>This isn't the right code.</Trans>{' '}
        <Plural value={attemptsLeft} one="You have 1 more unlock attempt." other="You have # more unlock attempts." />
      </>
    ) : at('invalid') || at('refused') ? (
      said(fieldErrors.currentUnlockCode)
    ) : undefined;
  const codeError =
    at('invalid') || at('mismatch')
      ? said(fieldErrors.unlockCode)
      : at('refused')
        ? (said(fieldErrors.unlockCode) ??
          (fieldErrors.currentUnlockCode ? undefined : t`We couldn't save this unlock code. Please choose another one.`))
        : undefined;
  const confirmationError = at('invalid') || at('mismatch') ? said(fieldErrors.unlockCodeConfirmation) : undefined;
  useFocusOnProblem(form, fieldErrors, at('invalid') || at('mismatch') || at('refused') || at('wrongCurrentCode'));

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const typed = event.currentTarget;
    const currentUnlockCode = String(new FormData(typed).get('currentUnlockCode') ?? '').replace(/\s/g, '');
    change.send({ type: 'user.submit', currentUnlockCode, ...newUnlockCodesOf(typed) });
  }

  return (
    <section className="screen" aria-labelledby="manage-account-title">
      <h1 id="manage-account-title" ref={heading} tabIndex={-1}>
        <Trans>Manage account</Trans>
      </h1>
      <section aria-labelledby="change-unlock-code-title">
        <h2 id="change-unlock-code-title">
          <Trans>Change your unlock code</Trans>
        </h2>
        <p>
          <Trans>Your unlock code opens the app when your session has expired.</Trans>
        </p>
        <div role="status">
          {at('saved') ? (
            <p className="notice">
              <Trans>Your unlock code has been changed.</Trans>
            </p>
          ) : null}
        </div>
        <form ref={form} className="form" onSubmit={submit} noValidate aria-busy={saving}>
          <UnlockCodeField id="current-unlock-code" name="currentUnlockCode" label={t`Current unlock code`} error={currentCodeError} />
          <NewUnlockCodeFields
            unlockCode={{
              id: 'changed-unlock-code',
              label: t`New unlock code`,
              hint: <Trans>Your unlock code is 4 digits. Avoid codes that are easy to guess, like 1234 or 1111.</Trans>,
              error: codeError,
            }}
            confirmation={{ id: 'confirm-changed-unlock-code', label: t`Confirm new unlock code`, error: confirmationError }}
          />
          {at('failed') ? (
            <p className="form-error" role="alert">
              {i18n._(failureMessage())}
            </p>
          ) : null}
          <SubmitButton unavailable={saving}>
            {saving ? <Trans>Saving…</Trans> : <Trans>Save unlock code</Trans>}
          </SubmitButton>
        </form>
      </section>
      <section aria-labelledby="agreements-title">
        <h2 id="agreements-title">
          <Trans>Agreements and fees</Trans>
        </h2>
        <ul className="plain-list">
          {agreementKinds.map((kind) => (
            <li key={kind}>
              <ReadAgreementButton kind={kind} onOpen={agreements.open} />
            </li>
          ))}
        </ul>
        <FeeDisclosure />
        {agreements.dialog}
      </section>
      <p className="screen-links">
        <Link to="/home">
          <Trans>Back to home</Trans>
        </Link>
      </p>
    </section>
  );
}
