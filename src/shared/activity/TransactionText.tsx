/**
 * How a transaction is said to a cardholder, in English and Spanish: what it was (its kind and the
 * merchant or payer) and whether it is still a hold. The server sends codes (contract/activity/types.ts),
 * never text, so both languages say the same thing. Home's recent activity and the activity screens
 * use these.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import type { Transaction } from '../../../contract/activity/types.ts';
import { feeOf } from '../../../contract/shared/fees.ts';
import { feeNames } from '../fees/feeNames.ts';

/** "Purchase at Save Mart", "Deposit from Valley Transit", "Fee: Physical card", … */
export function TransactionTitle({ transaction }: { transaction: Pick<Transaction, 'kind' | 'counterparty'> }) {
  const { i18n } = useLingui();
  // A fee is said by its name, in the reader's language, never by its code.
  const fee = feeOf(transaction);
  const counterparty = fee ? i18n._(feeNames[fee]) : transaction.counterparty;
  switch (transaction.kind) {
    case 'purchase':
      return counterparty ? <Trans>Purchase at {counterparty}</Trans> : <Trans>Purchase</Trans>;
    case 'deposit':
      return counterparty ? <Trans>Deposit from {counterparty}</Trans> : <Trans>Deposit</Trans>;
    case 'card_load':
      return <Trans>Money added</Trans>;
    case 'cash_load':
      return counterparty ? <Trans>Cash added at {counterparty}</Trans> : <Trans>Cash added</Trans>;
    case 'refund':
      return counterparty ? <Trans>Refund from {counterparty}</Trans> : <Trans>Refund</Trans>;
    case 'atm_withdrawal':
      return <Trans>ATM withdrawal</Trans>;
    case 'fee':
      return counterparty ? <Trans>Fee: {counterparty}</Trans> : <Trans>Fee</Trans>;
    case 'ebt_reward':
      return <Trans>EBT rewards</Trans>;
    case 'cushion':
      return <Trans>SNAPback cushion</Trans>;
    case 'reversal':
      return counterparty ? <Trans>Correction: {counterparty}</Trans> : <Trans>Correction</Trans>;
  }
}

/** "Pending" for a hold, "Completed" for money that moved. */
export function TransactionStatusText({ transaction }: { transaction: Pick<Transaction, 'status'> }) {
  return transaction.status === 'pending' ? <Trans>Pending</Trans> : <Trans>Completed</Trans>;
}
