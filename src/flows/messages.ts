/** Translations of the codes that charts keep in context (validation keys, statusCodes). */
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { ValidationMessage } from '../../contract/rules.ts';

export const validationMessages: Record<ValidationMessage, MessageDescriptor> = {
  [ValidationMessage.emailRequired]: msg`Email is required.`,
  [ValidationMessage.emailInvalid]: msg`Please enter a valid email address.`,
  [ValidationMessage.passwordRequired]: msg`Password is required.`,
  [ValidationMessage.unlockCodeRequired]: msg`Unlock code is required.`,
  [ValidationMessage.unlockCodeInvalid]: msg`Please enter your 4-digit unlock code.`,
  [ValidationMessage.tooLong]: msg`This is too long.`,
};

export const unexpectedErrorMessage = msg`There was an unexpected error. Please try again.`;
