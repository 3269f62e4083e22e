/**
 * What the app shows for a source (English) message in a locale, from the Lingui catalogue (the English
 * source when untranslated), for replays that switch the app's language with the header's switch.
 * The catalogue is read as e2e/support/catalog.ts reads it (its PO reader), from the project's root.
 */
import { readFileSync } from 'node:fs';
import { parsePo, type Locale } from '../../e2e/support/catalog.ts';

export type { Locale };

const spanish = new Map<string, string>();

export function shown(locale: Locale, source: string): string {
  if (locale === 'en') return source;
  if (spanish.size === 0) parsePo(readFileSync('locales/es/messages.po', 'utf8')).forEach((text, id) => spanish.set(id, text));
  return spanish.get(source) || source;
}
