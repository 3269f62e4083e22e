/** A statement's month in the reader's words, and its PDF saved as a file. */
import type { Locale } from '../../shared/format/locale.ts';
import { normalizeIntlSpaces, toIntlLocale } from '../../shared/format/locale.ts';

const monthFormats = new Map<Locale, Intl.DateTimeFormat>();

/**
 * '2026-11' → "November 2026" (en); in Spanish "noviembre de 2026" inside a sentence and "Noviembre de
 * 2026" as a heading. Statement months are UTC calendar months, so the month is read in UTC.
 */
export function formatStatementMonth(month: string, locale: Locale, use: 'heading' | 'sentence'): string {
  let format = monthFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(toIntlLocale(locale), { month: 'long', year: 'numeric', timeZone: 'UTC' });
    monthFormats.set(locale, format);
  }
  const text = normalizeIntlSpaces(format.format(new Date(`${month}-01T00:00:00Z`)));
  return use === 'heading' ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

/**
 * Hands a file to the browser as a download: an object URL on a hidden `<a download>`, clicked. This
 * works standalone and inside the companion app's frame; the URL is let go once the browser has it.
 */
export function saveFile(file: Blob, name: string): void {
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
