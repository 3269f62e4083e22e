/** Translations of the activation form's rule keys (contract/cards/rules.ts). */
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { CardValidationMessage } from '../../../../contract/cards/rules.ts';

export const activationMessages: Record<CardValidationMessage, MessageDescriptor> = {
  [CardValidationMessage.lastFourRequired]: msg`Please enter the last 4 digits of your card.`,
  [CardValidationMessage.lastFourInvalid]: msg`The last 4 digits are 4 numbers, printed on the front of your card.`,
  [CardValidationMessage.expiryRequired]: msg`Please enter the expiration date on your card.`,
  [CardValidationMessage.expiryInvalid]: msg`Enter the expiration date as MM/YY, with a month from 01 to 12.`,
  [CardValidationMessage.expiryPast]: msg`This date has passed. Check the expiration date on your card.`,
};
