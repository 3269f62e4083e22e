/**
 * Which language a text or an email to the cardholder leads with: the one the app is used in, which
 * its calls say in `Accept-Language` (src/shared/api/client.ts; a browser's own when another client
 * calls). Both languages are still sent, as someone else may read the phone or the inbox.
 */
import { type Locale, localeOfAcceptLanguage } from '../../contract/shared/locale.ts';

export const readersLanguage = (request: { headers: { 'accept-language'?: string } }): Locale =>
  localeOfAcceptLanguage(request.headers['accept-language']);

/** A text's words in each language, the reader's first. */
export const inReadersOrder = (words: Record<Locale, string>, locale: Locale): string[] =>
  locale === 'es' ? [words.es, words.en] : [words.en, words.es];
