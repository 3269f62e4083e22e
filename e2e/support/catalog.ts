/**
 * What the app shows for a source (English) message in a locale, read from the Lingui catalogue
 * the build compiles: the translation when there is one, else the English source, which is what
 * Lingui falls back to for an empty msgstr. Page models use it so one selector works in both
 * languages, before and after the Spanish translations land.
 */
import { readFileSync } from 'node:fs';

export type Locale = 'en' | 'es';

const catalogues = new Map<Locale, Map<string, string>>();

function unquote(line: string): string {
  return JSON.parse(line.trim()) as string;
}

/** Minimal PO reader: msgid/msgstr pairs with continuation lines; plural forms are not used by the tests. */
export function parsePo(source: string): Map<string, string> {
  const entries = new Map<string, string>();
  let field: 'msgid' | 'msgstr' | null = null;
  let msgid = '';
  let msgstr = '';
  const flush = () => {
    if (msgid) entries.set(msgid, msgstr);
    msgid = '';
    msgstr = '';
    field = null;
  };
  for (const line of source.split(/\r?\n/)) {
    if (line.startsWith('msgid ')) {
      flush();
      field = 'msgid';
      msgid = unquote(line.slice('msgid '.length));
    } else if (line.startsWith('msgstr ')) {
      field = 'msgstr';
      msgstr = unquote(line.slice('msgstr '.length));
    } else if (line.startsWith('"') && field) {
      if (field === 'msgid') msgid += unquote(line);
      else msgstr += unquote(line);
    } else if (line.trim() === '') {
      flush();
    }
  }
  flush();
  return entries;
}

function catalogue(locale: Locale): Map<string, string> {
  let entries = catalogues.get(locale);
  if (!entries) {
    entries = parsePo(readFileSync(new URL(`../../locales/${locale}/messages.po`, import.meta.url), 'utf8'));
    catalogues.set(locale, entries);
  }
  return entries;
}

/** The text shown for `source` in `locale` (the English source when untranslated). */
export function shown(locale: Locale, source: string): string {
  if (locale === 'en') return source;
  return catalogue(locale).get(source) || source;
}
