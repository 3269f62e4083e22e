/**
 * Amounts in US dollars, written out here rather than by Intl.NumberFormat: CLDR writes them the same in
 * en-US and es-US ("-$1,234.56"), and a page's first Intl object loads ICU's locale data in one
 * main-thread task (20–30 ms on a fresh Chromium here, several times that on a slow phone), which home's
 * first render would pay. tests/format/money.test.ts checks the text against Intl in both locales.
 */

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

/** "1234567" → "1,234,567". */
function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+$)/g, ',');
}

/** An amount with the dollar sign and grouping, in every locale, e.g. 123456 → "$1,234.56", -1200 → "-$12.00". */
export function formatDollars(cents: number): string {
  const parts = splitCents(cents);
  return `${parts.negative ? '-' : ''}$${groupThousands(parts.dollars)}.${parts.cents}`;
}

/** The spec's "$d.cc" form, without grouping and the same in every locale, e.g. 5 → "$0.05", -350 → "-$3.50". */
export function formatCents(cents: number): string {
  const parts = splitCents(cents);
  return `${parts.negative ? '-' : ''}$${parts.dollars}.${parts.cents}`;
}

/** An activity amount: a credit with its plus sign ("+$480.00"), a debit with its minus ("-$23.15"). */
export function formatSignedDollars(cents: number): string {
  return `${cents > 0 ? '+' : ''}${formatDollars(cents)}`;
}
