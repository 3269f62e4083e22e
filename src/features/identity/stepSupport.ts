/** What every registration step view shares: its props, field problems as text, focus on problems. */
import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { RegistrationEvent, RegistrationSnapshot } from '../../../machines/identity/registration.ts';
import type { RegistrationField } from '../../../machines/identity/registrationFields.ts';
import { RegistrationProblem } from '../../../machines/identity/registrationProblems.ts';
import { addressMessages, validationMessages } from '../../shared/messages.ts';

export type StepProps = {
  state: RegistrationSnapshot;
  send: (event: RegistrationEvent) => void;
};

const registrationProblemMessages: Record<string, MessageDescriptor> = {
  [RegistrationProblem.agreementRequired]: msg`Please accept this agreement to open your account.`,
  [RegistrationProblem.legalRequired]: msg`Please accept each agreement to open your account.`,
  [RegistrationProblem.phoneUnverified]: msg`Please verify your phone number again.`,
};

/**
 * A field problem's text: a rules.ts key, a registration problem, the server's `address.<code>`
 * (the spec §8 address texts), else (a key only the server knows) a plain ask.
 */
export function fieldProblemMessage(problem: string): MessageDescriptor {
  const addressCode = /^address\.(\d{3})$/.exec(problem)?.[1];
  return (
    (validationMessages as Record<string, MessageDescriptor>)[problem] ??
    registrationProblemMessages[problem] ??
    (addressCode ? addressMessages[Number(addressCode)] : undefined) ??
    msg`Please check this field.`
  );
}

/** The translated problem of each field, shown only while `shown` (the step's invalid state). */
export function problemsOf(state: RegistrationSnapshot, shown: boolean, i18n: I18n) {
  return (field: RegistrationField): string | undefined => {
    const problem = shown ? state.context.fieldErrors[field] : undefined;
    return problem ? i18n._(fieldProblemMessage(problem)) : undefined;
  };
}

export { useFocusOnProblem } from '../../shared/components/useFocusOnProblem.ts';
export { useHeadingFocus } from '../../shared/components/useHeadingFocus.ts';
