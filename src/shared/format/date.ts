/**
 * Dates and times in US English and US Spanish, written out here rather than by Intl.DateTimeFormat: a
 * page's first Intl object loads ICU's locale data in one main-thread task (20–30 ms on a fresh Chromium
 * here, several times that on a slow phone), which home's first render would pay. The words and order
 * are CLDR's for en-US and es-US; tests/format/date.test.ts checks every month and hour against Intl.
 * Times and days are the device's own (its time zone), as a cardholder reads her phone's clock.
 */
import type { Locale } from '../../../contract/shared/locale.ts';

/** A bare calendar date such as "2026-11-22": it names a day, not an instant. */
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

const shortMonths: Record<Locale, readonly string[]> = {
  en: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'],
  es: ['ene', 'feb', 'mar', 'abr', 'may', 'jun', 'jul', 'ago', 'sept', 'oct', 'nov', 'dic'],
};

const longMonths: Record<Locale, readonly string[]> = {
  en: ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'],
  es: ['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'octubre', 'noviembre', 'diciembre'],
};

/** Before noon, from noon. */
const dayPeriods: Record<Locale, readonly [string, string]> = { en: ['AM', 'PM'], es: ['a.m.', 'p.m.'] };

/** Parses an ISO 8601 string, throwing a RangeError naming the input rather than showing "Invalid Date". */
function parseIso(iso: string): Date {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) {
    throw new RangeError(`Invalid ISO 8601 date: ${JSON.stringify(iso)}`);
  }
  return date;
}

/**
 * A date on the device's calendar, e.g. "Nov 22, 2026" (en) or "22 nov 2026" (es): CLDR's medium form,
 * for a label (a list's day, a detail's value). Inside a sentence ('sentence') Spanish writes it out,
 * "22 de noviembre de 2026" (CLDR's long form: "llega entre el 8 de diciembre de 2026 y …"); English
 * keeps "Nov 22, 2026". A date-only string ("2026-11-22") is shown as that same day in every time zone:
 * JavaScript parses it as UTC midnight, which west of UTC would otherwise be the day before.
 */
export function formatDate(iso: string, locale: Locale, use: 'label' | 'sentence' = 'label'): string {
  const date = parseIso(iso);
  const [year, month, day] = DATE_ONLY.test(iso)
    ? [date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()]
    : [date.getFullYear(), date.getMonth(), date.getDate()];
  if (locale === 'en') return `${shortMonths.en[month]} ${day}, ${year}`;
  return use === 'sentence' ? `${day} de ${longMonths.es[month]} de ${year}` : `${day} ${shortMonths.es[month]} ${year}`;
}

/** Hour and minute on a 12-hour clock, e.g. "3:05 PM" (en) or "3:05 p.m." (es), on the device's clock. */
export function formatTime(iso: string, locale: Locale): string {
  const date = parseIso(iso);
  const hours = date.getHours();
  const minutes = String(date.getMinutes()).padStart(2, '0');
  return `${hours % 12 || 12}:${minutes} ${dayPeriods[locale][hours < 12 ? 0 : 1]}`;
}

/**
 * A calendar month such as '2026-11': "November 2026" (en); in Spanish "noviembre de 2026" inside a
 * sentence and "Noviembre de 2026" as a heading.
 */
export function formatMonth(month: string, locale: Locale, use: 'heading' | 'sentence'): string {
  const match = /^(\d{4})-(\d{2})$/.exec(month);
  const name = match ? longMonths[locale][Number(match[2]) - 1] : undefined;
  if (!match || name === undefined) throw new RangeError(`Invalid month: ${JSON.stringify(month)}`);
  const year = match[1];
  if (locale === 'en') return `${name} ${year}`;
  return `${use === 'heading' ? name.charAt(0).toUpperCase() + name.slice(1) : name} de ${year}`;
}
