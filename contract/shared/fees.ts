/**
 * The account's fees, in cents: the one place they are kept. The fee disclosure before the
 * agreements (the CFPB prepaid rule's short form, 12 CFR 1005.18(b)(2), and its long form) and the
 * Cardholder Agreement read them from here, and so does the ledger when it charges a fee.
 */
export type FeeName =
  | 'monthly'
  | 'perPurchase'
  | 'atmWithdrawalInNetwork'
  | 'atmWithdrawalOutOfNetwork'
  | 'cashReload'
  | 'atmBalanceInquiryInNetwork'
  | 'atmBalanceInquiryOutOfNetwork'
  | 'customerServiceLiveAgent'
  | 'customerServiceAutomated'
  | 'inactivity'
  | 'cardReplacement'
  | 'expeditedDelivery'
  | 'physicalCard';

export type Fee = { cents: number };

export const fees: Record<FeeName, Fee> = {
  monthly: { cents: 0 },
  perPurchase: { cents: 0 },
  atmWithdrawalInNetwork: { cents: 0 },
  atmWithdrawalOutOfNetwork: { cents: 250 },
  // Spec §9: "$3.50 charged after the load arrives", by Providers, through the ledger.
  cashReload: { cents: 350 },
  atmBalanceInquiryInNetwork: { cents: 0 },
  atmBalanceInquiryOutOfNetwork: { cents: 50 },
  customerServiceLiveAgent: { cents: 0 },
  customerServiceAutomated: { cents: 0 },
  inactivity: { cents: 0 },
  cardReplacement: { cents: 500 },
  expeditedDelivery: { cents: 1500 },
  // Spec §9: "$5 to send" a physical card (a lost or stolen card's replacement is free: docs/decisions.md "Cards").
  physicalCard: { cents: 500 },
};

/**
 * The fee a transaction names: a fee in the ledger names its fee by its code (the transfer's
 * counterparty, e.g. 'physicalCard'), and so does a fee's correction, so the app and the statement say
 * it by name in the reader's language. Null for any other transaction (a merchant named "monthly"
 * stays a merchant).
 */
export function feeOf(transaction: { kind: string; counterparty: string | null }): FeeName | null {
  const { kind, counterparty } = transaction;
  return (kind === 'fee' || kind === 'reversal') && counterparty !== null && Object.hasOwn(fees, counterparty) ? (counterparty as FeeName) : null;
}
