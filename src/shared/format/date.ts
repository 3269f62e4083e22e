import { warmUpIntl } from './intlWarmUp.ts';
import { intlFormats, type Locale, normalizeIntlSpaces, toIntlLocale } from './locale.ts';

// The screens that show amounts and dates load this module before they render.
warmUpIntl();

/** A bare calendar date such as "2026-11-22": it names a day, not an instant. */
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

const formats = new Map<string, Intl.DateTimeFormat>();

/** Intl formatters are costly to build and dates are shown in long lists, so each one is reused. */
function dateTimeFormat(
  locale: Locale,
  kind: 'date' | 'time',
  timeZone: string | undefined,
): Intl.DateTimeFormat {
  const key = `${locale}|${kind}|${timeZone ?? ''}`;
  let format = formats.get(key);
  if (!format) {
    const options: Intl.DateTimeFormatOptions = { ...(kind === 'date' ? intlFormats.shortDate : intlFormats.time), timeZone };
    format = new Intl.DateTimeFormat(toIntlLocale(locale), options);
    formats.set(key, format);
  }
  return format;
}

/** Parses an ISO 8601 string, throwing a RangeError naming the input rather than Intl's bare "Invalid time value". */
function parseIso(iso: string): Date {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) {
    throw new RangeError(`Invalid ISO 8601 date: ${JSON.stringify(iso)}`);
  }
  return date;
}

/**
 * Short date, e.g. "Nov 22, 2026" (en) or "22 nov 2026" (es), in the device's time zone unless `timeZone` is given.
 * A date-only string ("2026-11-22") is shown as that same day in every time zone: JavaScript parses it as UTC
 * midnight, which west of UTC would otherwise display as the day before.
 */
export function formatDate(iso: string, locale: Locale, timeZone?: string): string {
  const zone = DATE_ONLY.test(iso) ? 'UTC' : timeZone;
  return normalizeIntlSpaces(dateTimeFormat(locale, 'date', zone).format(parseIso(iso)));
}

/** Hour and minute, e.g. "3:05 PM" (en) or "3:05 p.m." (es), in the device's time zone unless `timeZone` is given. */
export function formatTime(iso: string, locale: Locale, timeZone?: string): string {
  return normalizeIntlSpaces(dateTimeFormat(locale, 'time', timeZone).format(parseIso(iso)));
}
