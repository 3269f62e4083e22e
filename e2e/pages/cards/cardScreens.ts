/** What the screens of getting a physical card share: the amounts shown, and dates as the app writes them. */
import type { Locator } from '@playwright/test';
import type { Locale } from '../../support/catalog.ts';
import { seenText } from '../../support/text.ts';

/** A calendar day 'YYYY-MM-DD' as the app writes it in a sentence ("Dec 8, 2026", "8 de diciembre de 2026"). */
export function dayInSentence(day: string, locale: Locale): string {
  return new Intl.DateTimeFormat(locale === 'es' ? 'es-US' : 'en-US', { year: 'numeric', month: locale === 'es' ? 'long' : 'short', day: 'numeric', timeZone: 'UTC' })
    .format(new Date(`${day}T12:00:00Z`))
    .replace(/[\u202F\u00A0]/g, ' ');
}

/**
 * The amounts' rows on a review or a receipt, as [label, amount], each amount as it is seen: without the
 * words only a screen reader is given (a negative amount's "minus $5.00").
 */
export async function moneyLinesOf(screen: Locator): Promise<string[][]> {
  const rows = screen.locator('dl > div');
  const lines: string[][] = [];
  for (let index = 0; index < (await rows.count()); index += 1) {
    const row = rows.nth(index);
    lines.push([await row.getByRole('term').innerText(), await seenText(row.getByRole('definition'))]);
  }
  return lines;
}
