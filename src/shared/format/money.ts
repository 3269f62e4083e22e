import { warmUpIntl } from './intlWarmUp.ts';
import { intlFormats, type Locale, toIntlLocale } from './locale.ts';

// The screens that show amounts and dates load this module before they render.
warmUpIntl();

/** An amount of integer cents split into its exact decimal digits. */
type CentsParts = { negative: boolean; dollars: string; cents: string };

/**
 * Splits integer cents with integer arithmetic only (no division into a float), so the digits are exact.
 * Throws a RangeError for non-integers and for integers beyond Number.MAX_SAFE_INTEGER, which are not exact.
 */
function splitCents(cents: number): CentsParts {
  if (!Number.isSafeInteger(cents)) {
    throw new RangeError(`Expected a safe integer amount of cents, got ${String(cents)}`);
  }
  const abs = Math.abs(cents);
  const remainder = abs % 100;
  return {
    negative: cents < 0, // -0 is not negative: shown as "$0.00"
    dollars: String((abs - remainder) / 100),
    cents: String(remainder).padStart(2, '0'),
  };
}

const currencyFormats = new Map<Locale, Intl.NumberFormat>();

/** Intl formatters are costly to build and amounts are shown in long lists, so one is kept per locale. */
function currencyFormat(locale: Locale): Intl.NumberFormat {
  let format = currencyFormats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(toIntlLocale(locale), intlFormats.currency);
    currencyFormats.set(locale, format);
  }
  return format;
}

/**
 * Localized amount with the dollar sign and grouping, e.g. 123456 → "$1,234.56", -1200 → "-$12.00".
 * Intl receives a decimal string rather than cents / 100, so large amounts are formatted exactly.
 */
export function formatDollars(cents: number, locale: Locale): string {
  const parts = splitCents(cents);
  const decimal = `${parts.negative ? '-' : ''}${parts.dollars}.${parts.cents}` as `${number}`;
  return currencyFormat(locale).format(decimal);
}

/** The spec's "$d.cc" form, without grouping and the same in every locale, e.g. 5 → "$0.05", -350 → "-$3.50". */
export function formatCents(cents: number): string {
  const parts = splitCents(cents);
  return `${parts.negative ? '-' : ''}$${parts.dollars}.${parts.cents}`;
}

/** An activity amount: a credit with its plus sign ("+$480.00"), a debit with its minus ("-$23.15"). */
export function formatSignedDollars(cents: number, locale: Locale): string {
  return `${cents > 0 ? '+' : ''}${formatDollars(cents, locale)}`;
}
