/** Translations of the codes that charts keep in context (validation keys, statusCodes). */
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { ValidationMessage } from '../../contract/rules.ts';
import { StatusCode } from '../../contract/shared/statusCodes.ts';
import { connectionSuspect } from './api/serverAnswered.ts';

export const validationMessages: Record<ValidationMessage, MessageDescriptor> = {
  [ValidationMessage.emailRequired]: msg`Email is required.`,
  [ValidationMessage.emailInvalid]: msg`Please enter a valid email address.`,
  [ValidationMessage.passwordRequired]: msg`Password is required.`,
  [ValidationMessage.passwordTooShort]: msg`Password must be at least 8 characters.`,
  [ValidationMessage.passwordSpaces]: msg`Password cannot contain spaces.`,
  [ValidationMessage.passwordCommon]: msg`This password is too common, too easy to guess or has appeared in a data breach. Please choose another one.`,
  [ValidationMessage.unlockCodeRequired]: msg`Unlock code is required.`,
  [ValidationMessage.unlockCodeInvalid]: msg`Please enter your 4-digit unlock code.`,
  [ValidationMessage.unlockCodeObvious]: msg`This code is easy to guess. Please choose another one.`,
  [ValidationMessage.unlockCodeMismatch]: msg`The unlock codes don't match.`,
  [ValidationMessage.unlockCodeUnchanged]: msg`This is already your unlock code. Please choose a different one.`,
  [ValidationMessage.firstNameRequired]: msg`First name is required.`,
  [ValidationMessage.lastNameRequired]: msg`Last name is required.`,
  [ValidationMessage.nameInvalid]: msg`Please use only letters, spaces, hyphens and apostrophes.`,
  [ValidationMessage.dobInvalid]: msg`Please enter your date of birth as MM/DD/YYYY.`,
  [ValidationMessage.dobNotReal]: msg`This date doesn't exist. Please check the month and day.`,
  [ValidationMessage.dobOutOfRange]: msg`Please enter your real date of birth.`,
  [ValidationMessage.dobUnder18]: msg`You must be 18 to sign up for a Providers Debit account.`,
  [ValidationMessage.ssnInvalid]: msg`Please enter a valid 9-digit Social Security number.`,
  [ValidationMessage.ssnItin]: msg`We can't accept an ITIN. Please enter your Social Security number.`,
  [ValidationMessage.phoneRequired]: msg`Phone is required.`,
  [ValidationMessage.phoneLength]: msg`Please enter a 10-digit number.`,
  [ValidationMessage.phoneInvalid]: msg`Please enter a valid phone number.`,
  [ValidationMessage.street1Required]: msg`Street address is required.`,
  [ValidationMessage.cityRequired]: msg`City is required.`,
  [ValidationMessage.stateRequired]: msg`State is required.`,
  [ValidationMessage.stateInvalid]: msg`Please choose one of the 50 states.`,
  [ValidationMessage.zipRequired]: msg`ZIP code is required.`,
  [ValidationMessage.zipInvalid]: msg`Please provide your 5 or 9-digit ZIP code.`,
  [ValidationMessage.tooLong]: msg`This is too long.`,
};

/** Whole minutes (at least 1) until a server deadline, as shown when a wait starts; the chart re-checks the deadline itself. */
export function minutesUntil(deadline: number | null, now = Date.now()): number {
  return deadline === null ? 1 : Math.max(1, Math.ceil((deadline - now) / 60_000));
}

export const unexpectedErrorMessage = msg`There was an unexpected error. Please try again.`;
const unreachedMessage = msg`We couldn't reach Providers. Check your connection and try again.`;

/**
 * What a form says when its call failed: spec §8's unexpected error, or, when the connection is the
 * likely cause (the phone is offline, or the call got no answer at all: connectionSuspect), that
 * Providers could not be reached. Out of data or signal is not "unexpected", and not the same fix. Read
 * when the failure is shown.
 */
export const failureMessage = (): MessageDescriptor => (connectionSuspect() ? unreachedMessage : unexpectedErrorMessage);

/** /verify-address answers 300-307, verbatim from spec §8. */
export const addressMessages: Record<number, MessageDescriptor> = {
  [StatusCode.ADDRESS_INVALID]: msg`This doesn't seem to be a valid address. Please try again.`,
  [StatusCode.ADDRESS_UNIT_INCORRECT]: msg`This apartment or unit number is incorrect.`,
  [StatusCode.ADDRESS_UNIT_REQUIRED]: msg`An apartment or unit number is required.`,
  [StatusCode.ADDRESS_COMMERCIAL]: msg`We're unable to accept commercial/work addresses. Please enter a residential address.`,
  [StatusCode.ADDRESS_PO_BOX]: msg`We're unable to accept PO Box addresses. Please try again.`,
  [StatusCode.ADDRESS_VACANT]: msg`This address seems to be vacant. Please enter an occupied residential address.`,
  [StatusCode.ADDRESS_GENERAL_DELIVERY]: msg`We're unable to accept "General Delivery" addresses. Please enter a residential address.`,
  [StatusCode.ADDRESS_MAIL_DROP]: msg`We're unable to accept Mail Drop addresses. Please enter a residential address.`,
};

