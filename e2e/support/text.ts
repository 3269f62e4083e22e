/** Expected on-screen text built from API data. */
import type { Transaction } from '../../contract/activity/types.ts';

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** Integer cents as the app shows them in a locale, e.g. 123456 → "$1,234.56". */
export function dollars(cents: number, locale: 'en' | 'es' = 'en'): string {
  return new Intl.NumberFormat(locale === 'es' ? 'es-US' : 'en-US', { style: 'currency', currency: 'USD' }).format(cents / 100);
}

/**
 * An activity row: what it was (naming the merchant or payer; a fee's counterparty is its code, shown by
 * the fee's name, so a fee is matched by its kind), then (after the date and place) the signed amount,
 * e.g. "+$612.40".
 */
export function activityRowPattern(transaction: Transaction, locale: 'en' | 'es' = 'en'): RegExp {
  const amount = `${transaction.amount > 0 ? '+' : ''}${dollars(transaction.amount, locale)}`;
  const what = transaction.kind === 'fee' ? (locale === 'es' ? 'Cargo' : 'Fee') : (transaction.counterparty ?? '');
  return new RegExp(`^\\D*${escapeRegExp(what)}.*${escapeRegExp(amount)}$`);
}

/**
 * Short dates as Intl writes them: "Nov 18, 2026" (en-US) or "18 nov 2026" (es-US). No leading \b:
 * a row's text runs what it was straight into the date ("Food 4 LessNov 18, 2026").
 */
export const englishShortDate = /(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{1,2}, \d{4}\b/;
export const spanishShortDate = /\d{1,2} (ene|feb|mar|abr|may|jun|jul|ago|sept?|oct|nov|dic)\.? \d{4}\b/;
