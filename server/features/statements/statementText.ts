/**
 * What a statement says, in English and Spanish (one voice in Spanish: "usted"). The app says a
 * transaction's kind in src/shared/activity/TransactionText.tsx and locales/es/messages.po; the PDF is
 * made on the server, which cannot read those, so the same words are kept here: change both together
 * (tests/unit/transactionText.test.tsx fails when a kind or a fee is said differently in either language).
 * Numbers and dates are formatted with Intl for the US locales, in US Eastern time (a statement's
 * months are months of it, contract/shared/businessDays.ts); the app writes the same texts out itself
 * (src/shared/format/), as its tests check.
 */
import type { TransactionKind } from '../../../contract/activity/types.ts';
import { type FeeName, feeOf } from '../../../contract/shared/fees.ts';
import type { StatementLocale } from '../../../contract/statements/types.ts';
import { usEasternTimeZone } from '../../../contract/shared/businessDays.ts';

export type StatementText = {
  title: string;
  cardholder: string;
  accountNumber: string;
  /** The masked account number as a screen reader is given it ("ending in 5678"): its dots would be read one by one. */
  endingIn: (lastFour: string) => string;
  period: string;
  issued: string;
  inProgress: string;
  /** Why a date here can be a day off the app's (the app shows the phone's time). */
  timeZoneNote: string;
  summary: string;
  openingBalance: string;
  credits: string;
  debits: string;
  fees: string;
  /** The fees of the year so far, through the statement's month (Regulation E §1005.18(c)(5)). */
  feesThisYear: (year: string) => string;
  closingBalance: string;
  transactions: string;
  continued: string;
  date: string;
  description: string;
  amount: string;
  noTransactions: string;
  /** The holds list's heading: in a month that is over, and in the month under way. */
  pendingAtMonthEnd: string;
  pendingNow: string;
  pendingNote: string;
  issuedBy: (bank: string, address: string) => string;
  page: (page: number, pages: number) => string;
  /** "Purchase at Save Mart", as the activity screens say it. */
  kind: (kind: TransactionKind, counterparty: string | null) => string;
};

/** The counterparty as said: a fee (and a fee's correction) by the fee's name, as src/shared/fees/feeNames.ts says it. */
function counterpartyOf(kind: TransactionKind, counterparty: string, names: Record<FeeName, string>): string {
  const fee = feeOf({ kind, counterparty });
  return fee ? names[fee] : counterparty;
}

const englishFeeNames: Record<FeeName, string> = {
  monthly: 'Monthly fee',
  perPurchase: 'Per purchase',
  atmWithdrawalInNetwork: 'ATM withdrawal, in network',
  atmWithdrawalOutOfNetwork: 'ATM withdrawal, out of network',
  cashReload: 'Cash reload',
  atmBalanceInquiryInNetwork: 'ATM balance inquiry, in network',
  atmBalanceInquiryOutOfNetwork: 'ATM balance inquiry, out of network',
  customerServiceLiveAgent: 'Customer service, live agent',
  customerServiceAutomated: 'Customer service, automated',
  inactivity: 'Inactivity',
  cardReplacement: 'Card replacement',
  expeditedDelivery: 'Faster card delivery',
  physicalCard: 'Physical card',
};

const spanishFeeNames: Record<FeeName, string> = {
  monthly: 'Cargo mensual',
  perPurchase: 'Por compra',
  atmWithdrawalInNetwork: 'Retiro en cajero automático, dentro de la red',
  atmWithdrawalOutOfNetwork: 'Retiro en cajero automático, fuera de la red',
  cashReload: 'Recarga en efectivo',
  atmBalanceInquiryInNetwork: 'Consulta de saldo en cajero automático, dentro de la red',
  atmBalanceInquiryOutOfNetwork: 'Consulta de saldo en cajero automático, fuera de la red',
  customerServiceLiveAgent: 'Servicio al cliente, con un agente',
  customerServiceAutomated: 'Servicio al cliente, automatizado',
  inactivity: 'Inactividad',
  cardReplacement: 'Reemplazo de tarjeta',
  expeditedDelivery: 'Entrega rápida de la tarjeta',
  physicalCard: 'Tarjeta física',
};

const english: StatementText = {
  title: 'Monthly statement',
  cardholder: 'Cardholder',
  accountNumber: 'Account number',
  endingIn: (lastFour) => `ending in ${lastFour}`,
  period: 'Statement period',
  issued: 'Issued',
  inProgress: 'This month is not over yet: this statement shows your activity so far.',
  timeZoneNote:
    "Dates and months here are in US Eastern Time (New York). In another time zone, a transaction near midnight may show a different day here than in the app, and one near the end or the start of a month may be on the other month's statement.",
  summary: 'Summary',
  openingBalance: 'Opening balance',
  credits: 'Credits (money in)',
  debits: 'Debits (money out)',
  fees: 'Fees (included in debits)',
  feesThisYear: (year) => `Fees in ${year} through this month`,
  closingBalance: 'Closing balance',
  transactions: 'Transactions',
  continued: 'continued',
  date: 'Date',
  description: 'Description',
  amount: 'Amount',
  noTransactions: 'No transactions this month.',
  pendingAtMonthEnd: 'Pending at the end of the month',
  pendingNow: 'Pending now',
  pendingNote:
    'Pending transactions are not included in the balances. One the merchant completes is counted on the statement for the month it is completed in; one released is never counted: no money was taken for it.',
  issuedBy: (bank, address) => `Your Providers card account is issued by ${bank}, ${address}.`,
  page: (page, pages) => `Page ${page} of ${pages}`,
  kind: (kind, counterparty) => {
    switch (kind) {
      case 'purchase':
        return counterparty ? `Purchase at ${counterparty}` : 'Purchase';
      case 'deposit':
        return counterparty ? `Deposit from ${counterparty}` : 'Deposit';
      case 'card_load':
        return 'Money added';
      case 'cash_load':
        return counterparty ? `Cash added at ${counterparty}` : 'Cash added';
      case 'refund':
        return counterparty ? `Refund from ${counterparty}` : 'Refund';
      case 'atm_withdrawal':
        return 'ATM withdrawal';
      case 'fee':
        return counterparty ? `Fee: ${counterpartyOf(kind, counterparty, englishFeeNames)}` : 'Fee';
      case 'ebt_reward':
        return 'EBT rewards';
      case 'cushion':
        return 'SNAPback cushion';
      case 'reversal':
        return counterparty ? `Correction: ${counterpartyOf(kind, counterparty, englishFeeNames)}` : 'Correction';
    }
  },
};

const spanish: StatementText = {
  title: 'Estado de cuenta mensual',
  cardholder: 'Titular de la tarjeta',
  accountNumber: 'Número de cuenta',
  // Said of the account number (el número): masculine.
  endingIn: (lastFour) => `terminado en ${lastFour}`,
  period: 'Período del estado de cuenta',
  issued: 'Emitido',
  inProgress: 'Este mes aún no termina: este estado de cuenta muestra sus movimientos hasta ahora.',
  timeZoneNote:
    'Las fechas y los meses de este estado de cuenta están en la hora del Este de EE. UU. (Nueva York). En otra zona horaria, un movimiento cerca de la medianoche puede mostrar aquí un día distinto al de la aplicación, y uno cerca del final o del inicio de un mes puede aparecer en el estado de cuenta del otro mes.',
  summary: 'Resumen',
  openingBalance: 'Saldo inicial',
  credits: 'Créditos (dinero que entró)',
  debits: 'Débitos (dinero que salió)',
  fees: 'Cargos (incluidos en los débitos)',
  feesThisYear: (year) => `Cargos en ${year} hasta este mes`,
  closingBalance: 'Saldo final',
  transactions: 'Movimientos',
  continued: 'continuación',
  date: 'Fecha',
  description: 'Descripción',
  amount: 'Monto',
  noTransactions: 'No hubo movimientos este mes.',
  pendingAtMonthEnd: 'Pendientes al cierre del mes',
  pendingNow: 'Pendientes ahora',
  pendingNote:
    'Los movimientos pendientes no se incluyen en los saldos. Los que el comercio complete se incluyen en el estado de cuenta del mes en que se completen; los que se liberen nunca se incluyen, ya que no se descontó dinero por ellos.',
  issuedBy: (bank, address) => `Su cuenta de la Tarjeta Providers es emitida por ${bank}, ${address}.`,
  page: (page, pages) => `Página ${page} de ${pages}`,
  kind: (kind, counterparty) => {
    switch (kind) {
      case 'purchase':
        return counterparty ? `Compra en ${counterparty}` : 'Compra';
      case 'deposit':
        return counterparty ? `Depósito de ${counterparty}` : 'Depósito';
      case 'card_load':
        return 'Dinero agregado';
      case 'cash_load':
        return counterparty ? `Efectivo agregado en ${counterparty}` : 'Efectivo agregado';
      case 'refund':
        return counterparty ? `Reembolso de ${counterparty}` : 'Reembolso';
      case 'atm_withdrawal':
        return 'Retiro en cajero automático';
      case 'fee':
        return counterparty ? `Cargo: ${counterpartyOf(kind, counterparty, spanishFeeNames)}` : 'Cargo';
      case 'ebt_reward':
        return 'Recompensas de EBT';
      case 'cushion':
        return 'Colchón SNAPback';
      case 'reversal':
        return counterparty ? `Corrección: ${counterpartyOf(kind, counterparty, spanishFeeNames)}` : 'Corrección';
    }
  },
};

export const statementText: Record<StatementLocale, StatementText> = { en: english, es: spanish };

const intlLocale = (locale: StatementLocale) => (locale === 'es' ? 'es-US' : 'en-US');
/** Intl's narrow and no-break spaces as plain ones, as the app writes them. */
const plainSpaces = (text: string) => text.replace(/[\u202F\u00A0]/g, ' ');

const moneyFormats = new Map<StatementLocale, Intl.NumberFormat>();

/**
 * Integer cents as dollars ("$1,234.56", "-$12.00"), exactly: the digits are split with integer
 * arithmetic and Intl gets a decimal string, never cents / 100 (src/shared/format/money.ts splits them the same way).
 */
export function formatDollars(cents: number, locale: StatementLocale): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`Expected a safe integer amount of cents, got ${String(cents)}`);
  const abs = Math.abs(cents);
  const remainder = abs % 100;
  const decimal = `${cents < 0 ? '-' : ''}${(abs - remainder) / 100}.${String(remainder).padStart(2, '0')}`;
  let format = moneyFormats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(intlLocale(locale), { style: 'currency', currency: 'USD' });
    moneyFormats.set(locale, format);
  }
  return plainSpaces(format.format(decimal as `${number}`));
}

/** A transaction's amount with its sign: "+$480.00", "-$23.15". */
export const formatSignedDollars = (cents: number, locale: StatementLocale) => `${cents > 0 ? '+' : ''}${formatDollars(cents, locale)}`;

const dateFormats = new Map<string, Intl.DateTimeFormat>();
function dateFormat(locale: StatementLocale, style: 'month' | 'day' | 'long'): Intl.DateTimeFormat {
  const key = `${locale}|${style}`;
  let format = dateFormats.get(key);
  if (!format) {
    const options: Intl.DateTimeFormatOptions =
      style === 'month' ? { month: 'long', year: 'numeric' } : style === 'day' ? { month: 'short', day: 'numeric' } : { dateStyle: 'long' };
    format = new Intl.DateTimeFormat(intlLocale(locale), { ...options, timeZone: usEasternTimeZone });
    dateFormats.set(key, format);
  }
  return format;
}

/** "November 2026", "noviembre de 2026". */
export const formatMonth = (start: Date, locale: StatementLocale) => plainSpaces(dateFormat(locale, 'month').format(start));
/** A row's day: "Nov 3", "3 nov". */
export const formatDay = (at: Date, locale: StatementLocale) => plainSpaces(dateFormat(locale, 'day').format(at));
/** "November 30, 2026", "30 de noviembre de 2026". */
export const formatLongDate = (at: Date, locale: StatementLocale) => plainSpaces(dateFormat(locale, 'long').format(at));

/** The account number (prn) masked to its last 4 characters, as the app masks it (src/shared/format/account.ts). */
export function maskAccountNumber(prn: string): string {
  const value = prn.trim();
  return value.length <= 4 ? value : `••••${value.slice(-4)}`;
}
