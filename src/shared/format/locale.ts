import type { Locale } from '../../../machines/session/session.ts';

export type { Locale };

/** BCP 47 tag passed to Intl: US regional variants, since every amount is in US dollars. */
export function toIntlLocale(locale: Locale): 'en-US' | 'es-US' {
  return locale === 'es' ? 'es-US' : 'en-US';
}

/** The Intl formats the screens use (money.ts, date.ts); the Intl worker builds the same ones first. */
export const intlFormats = {
  currency: { style: 'currency', currency: 'USD' },
  shortDate: { year: 'numeric', month: 'short', day: 'numeric' },
  time: { hour: 'numeric', minute: '2-digit' },
} as const satisfies Record<string, Intl.NumberFormatOptions | Intl.DateTimeFormatOptions>;

/**
 * Replaces the narrow and ordinary no-break spaces some ICU versions put in Intl output
 * (e.g. "3:05\u202FPM") with a plain space, so Node, jsdom and every browser render the same text.
 */
export function normalizeIntlSpaces(text: string): string {
  return text.replace(/[\u202F\u00A0]/g, ' ');
}
