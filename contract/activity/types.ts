/**
 * Activity (spec §3 transaction, §7 GET /transactions): what the ledger's transfers look like to a
 * cardholder. Money is integer cents; an amount is positive for a credit (spec §3). The kind and status
 * are codes, never text: the app says them in the reader's language.
 */
import type { StatusAnswer } from '../shared/answers.ts';

/** What a movement of money is, in the product's words (the ledger's transfer kinds). */
export const transactionKinds = [
  'deposit',
  'card_load',
  'cash_load',
  'purchase',
  'refund',
  'atm_withdrawal',
  'fee',
  'ebt_reward',
  'cushion',
  'reversal',
] as const;
export type TransactionKind = (typeof transactionKinds)[number];

/** A hold not yet settled ('pending') or money that moved ('posted'). Released holds are not activity. */
export type TransactionStatus = 'pending' | 'posted';

export type Transaction = {
  id: string;
  /** Cents; positive is a credit. A pending purchase is the amount held. */
  amount: number;
  /** ISO 8601, UTC. */
  timestamp: string;
  kind: TransactionKind;
  status: TransactionStatus;
  /** The merchant or the payer, as the partner named it; for a fee, its code in contract/shared/fees.ts ('physicalCard'). */
  counterparty: string | null;
  location: string | null;
  /** For a hold: when it is released if the merchant never settles it (ISO 8601). */
  heldUntil: string | null;
};

/**
 * The fees charged (cents, positive) in the last calendar month and in this calendar year so far:
 * Regulation E §1005.18(c)(5)'s totals for a prepaid account's history. Months and years are US
 * Eastern, as statements count them; in January, `lastMonth` is December of the year before.
 */
export type FeeTotals = {
  /** 'YYYY-MM'. */
  lastMonth: string;
  lastMonthCents: number;
  /** 'YYYY': from January 1 through the end of this month (as the statement of the month under way totals it). */
  year: string;
  yearCents: number;
};

/**
 * Newest first; `nextCursor` asks for the page after this one, null when there is none (NO_MORE).
 * The first page (no cursor) also carries the fee totals.
 */
export type TransactionsPage = StatusAnswer & { transactions: Transaction[]; nextCursor: string | null; fees?: FeeTotals };
export type TransactionsQuery = { cursor?: string; limit?: string };

/** A transaction as its own call gives it: for a hold the merchant completed, also when and how much was first held. */
export type TransactionDetail = Transaction & {
  /** When the merchant completed the hold (ISO 8601, UTC): the statement of its month in US Eastern time counts it. */
  settledAt?: string;
  /** Cents first held (positive); a completion for less gave the rest back, a purchase's for more (a tip) took the extra. */
  heldAmount?: number;
};
export type TransactionAnswer = StatusAnswer & { transaction: TransactionDetail };
export type TransactionQuery = { id: string };
