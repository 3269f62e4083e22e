/** Which of the app's languages a browser prefers: one rule for the app, its page and the sandbox partners. */
export type Locale = 'en' | 'es';

/**
 * The splash's name for screen readers (index.html's loader overlay), shown before the app's messages
 * load: the server writes it in the browser's language, the app in the cardholder's once it starts.
 */
export const splashLabel: Record<Locale, string> = { en: 'Loading', es: 'Cargando' };

/** Spanish when the first of the listed languages that the app speaks is Spanish, English otherwise. */
export function preferredLocale(languages: readonly string[]): Locale {
  const preferred = languages.find((language) => /^(en|es)\b/i.test(language.trim()));
  return preferred?.trim().toLowerCase().startsWith('es') ? 'es' : 'en';
}

/**
 * An `Accept-Language` header's language ranges, most preferred first (RFC 9110 §12.5.4): ordered by
 * weight, keeping the header's order among equal weights; a range weighted `q=0` is "not acceptable"
 * and left out.
 */
export function acceptedLanguages(header: string | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((entry, order) => {
      const [range = '', ...parameters] = entry.split(';').map((part) => part.trim());
      const weight = parameters.find((parameter) => /^q=/i.test(parameter));
      return { range, order, q: weight === undefined ? 1 : Number(weight.slice(2)) };
    })
    .filter(({ range, q }) => range !== '' && Number.isFinite(q) && q > 0)
    .sort((a, b) => b.q - a.q || a.order - b.order)
    .map(({ range }) => range);
}
