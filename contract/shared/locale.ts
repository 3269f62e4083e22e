/** Which of the app's languages a browser prefers: one rule for the app, its page and the sandbox partners. */
export type Locale = 'en' | 'es';

const appLocales: readonly Locale[] = ['en', 'es'];

/**
 * The splash's name for screen readers (index.html's loader overlay), shown before the app's messages
 * load: the server writes it in the browser's language, the app in the cardholder's once it starts.
 */
export const splashLabel: Record<Locale, string> = { en: 'Loading', es: 'Cargando' };

/**
 * Spanish when the first of the listed languages (tags: "es-US", Android's "es_US") that the app speaks
 * is Spanish, English otherwise.
 */
export function preferredLocale(languages: readonly string[]): Locale {
  const preferred = languages.find((language) => /^(en|es)([-_]|$)/i.test(language.trim()));
  return preferred?.trim().toLowerCase().startsWith('es') ? 'es' : 'en';
}

/** RFC 9110 §12.5.1 qvalue: 0 to 1 with at most three decimals. */
const qvalue = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/**
 * An `Accept-Language` header's ranges with their weights (RFC 9110 §12.5.4), in the header's order; a
 * range whose weight is not a qvalue is malformed and left out.
 */
function weightedRanges(header: string | undefined): { range: string; q: number; order: number }[] {
  return (header ?? '').split(',').flatMap((entry, order) => {
    const [range = '', ...parameters] = entry.split(';').map((part) => part.trim());
    const weight = parameters.find((parameter) => /^q=/i.test(parameter))?.slice(2);
    if (range === '' || (weight !== undefined && !qvalue.test(weight))) return [];
    return [{ range, order, q: weight === undefined ? 1 : Number(weight) }];
  });
}

/** The ranges a browser accepts, most preferred first: by weight, the header's order among equals; `q=0` ranges left out. */
export function acceptedLanguages(header: string | undefined): string[] {
  return weightedRanges(header)
    .filter(({ q }) => q > 0)
    .sort((a, b) => b.q - a.q || a.order - b.order)
    .map(({ range }) => range);
}

/** The ranges a browser refuses: weighted `q=0` ("not acceptable"). */
export function refusedLanguages(header: string | undefined): string[] {
  return weightedRanges(header)
    .filter(({ q }) => q === 0)
    .map(({ range }) => range);
}

/**
 * The app's language for a request's `Accept-Language`: a refused language (`en;q=0`) is never chosen,
 * `*` stands for the app's languages not refused, and with no match the first of those is.
 */
export function localeOfAcceptLanguage(header: string | undefined): Locale {
  const refused = new Set(refusedLanguages(header).map((range) => range.toLowerCase()));
  const open = appLocales.filter((locale) => !refused.has(locale));
  const ranges = acceptedLanguages(header).flatMap((range) => (range === '*' ? open : refused.has(range.toLowerCase()) ? [] : [range]));
  return preferredLocale([...ranges, ...open]);
}
