/** Expected on-screen text built from API data. */
import type { Locator } from '@playwright/test';
import type { Transaction } from '../../contract/activity/types.ts';

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** Integer cents as the app shows them in a locale, e.g. 123456 → "$1,234.56". */
export function dollars(cents: number, locale: 'en' | 'es' = 'en'): string {
  return new Intl.NumberFormat(locale === 'es' ? 'es-US' : 'en-US', { style: 'currency', currency: 'USD' }).format(cents / 100);
}

/** A signed amount as it is seen: "+$612.40", "-$23.15". */
export function signedDollars(cents: number, locale: 'en' | 'es' = 'en'): string {
  return `${cents > 0 ? '+' : ''}${dollars(cents, locale)}`;
}

/** A signed amount as a screen reader is given it, in words: "plus $612.40", "menos $23.15". */
export function heardDollars(cents: number, locale: 'en' | 'es' = 'en'): string {
  const words = locale === 'es' ? { minus: 'menos', plus: 'más' } : { minus: 'minus', plus: 'plus' };
  const magnitude = dollars(Math.abs(cents), locale);
  return cents < 0 ? `${words.minus} ${magnitude}` : cents > 0 ? `${words.plus} ${magnitude}` : magnitude;
}

/**
 * An activity row's text: what it was (naming the merchant or payer; a fee's counterparty is its code,
 * shown by the fee's name, so a fee is matched by its kind), then (after the date and place) the signed
 * amount as seen and, hidden from sight, as heard: "+$612.40plus $612.40" ("$0.00" alone).
 */
export function activityRowPattern(transaction: Transaction, locale: 'en' | 'es' = 'en'): RegExp {
  // $0.00 has no sign, so nothing is said apart from what is seen.
  const amount = transaction.amount === 0 ? dollars(0, locale) : signedDollars(transaction.amount, locale) + heardDollars(transaction.amount, locale);
  const what = transaction.kind === 'fee' ? (locale === 'es' ? 'Cargo' : 'Fee') : (transaction.counterparty ?? '');
  return new RegExp(`^\\D*${escapeRegExp(what)}.*${escapeRegExp(amount)}$`);
}

/**
 * Short dates as Intl writes them: "Nov 18, 2026" (en-US) or "18 nov 2026" (es-US). No leading \b:
 * a row's text runs what it was straight into the date ("Food 4 LessNov 18, 2026").
 */
export const englishShortDate = /(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{1,2}, \d{4}\b/;
export const spanishShortDate = /\d{1,2} (ene|feb|mar|abr|may|jun|jul|ago|sept?|oct|nov|dic)\.? \d{4}\b/;

/** An element's text as it is seen: without what only a screen reader is given (an amount's "minus $5.00"). */
export function seenText(element: Locator): Promise<string> {
  return element.evaluate((shown) => {
    const copy = shown.cloneNode(true) as Element;
    for (const unseen of copy.querySelectorAll('.visually-hidden')) unseen.remove();
    return copy.textContent!;
  });
}
