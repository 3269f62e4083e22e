/**
 * Each fee's name, in the reader's language: the fee disclosure lists them, and a fee in the activity
 * names its fee by the same code (contract/shared/fees.ts).
 */
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { FeeName } from '../../../contract/shared/fees.ts';

export const feeNames: Record<FeeName, MessageDescriptor> = {
  monthly: msg`Monthly fee`,
  perPurchase: msg`Per purchase`,
  atmWithdrawalInNetwork: msg`ATM withdrawal, in network`,
  atmWithdrawalOutOfNetwork: msg`ATM withdrawal, out of network`,
  cashReload: msg`Cash reload`,
  atmBalanceInquiryInNetwork: msg`ATM balance inquiry, in network`,
  atmBalanceInquiryOutOfNetwork: msg`ATM balance inquiry, out of network`,
  customerServiceLiveAgent: msg`Customer service, live agent`,
  customerServiceAutomated: msg`Customer service, automated`,
  inactivity: msg`Inactivity`,
  cardReplacement: msg`Card replacement`,
  expeditedDelivery: msg`Faster card delivery`,
  physicalCard: msg`Physical card`,
};
