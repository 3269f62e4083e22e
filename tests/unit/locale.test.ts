/** Which language a browser prefers (contract/shared/locale.ts): the app, its page and the sandbox partners share it. */
import { describe, expect, it } from 'vitest';
import { acceptedLanguages, preferredLocale } from '../../contract/shared/locale.ts';

describe('Accept-Language (RFC 9110 §12.5.4)', () => {
  it.each([
    // The RFC's own example: Danish first, then British English (0.8), then any English (0.7).
    ['da, en-gb;q=0.8, en;q=0.7', ['da', 'en-gb', 'en']],
    ['es-MX,es;q=0.9,en-US;q=0.8,en;q=0.7', ['es-MX', 'es', 'en-US', 'en']],
    // Weights order the list, whatever the header's order; equal weights keep it.
    ['en;q=0.5, es', ['es', 'en']],
    ['fr;q=0.8, es;q=0.8, en;q=0.9', ['en', 'fr', 'es']],
    // q=0 is "not acceptable"; spaces around the parameter and an upper-case Q are allowed.
    ['es;q=0, en', ['en']],
    ['es ; Q=0.3 , en;q=0.2', ['es', 'en']],
    ['*', ['*']],
    ['', []],
  ])('"%s" lists %j', (header, expected) => {
    expect(acceptedLanguages(header)).toEqual(expected);
  });

  it('has no languages when the header is absent', () => {
    expect(acceptedLanguages(undefined)).toEqual([]);
  });
});

describe('the preferred locale', () => {
  it.each([
    [['es-MX', 'en'], 'es'],
    [['es'], 'es'],
    [['en-US', 'es'], 'en'],
    // The first language the app speaks decides; others are passed over.
    [['fr-CA', 'es-US', 'en'], 'es'],
    [['fr', 'de'], 'en'],
    [[], 'en'],
    // Not Spanish: a tag that only begins with the letters.
    [['est', 'es'], 'es'],
    [['ES-419'], 'es'],
  ] as const)('%j → %s', (languages, locale) => {
    expect(preferredLocale(languages)).toBe(locale);
  });

  it('is Spanish for a header that weights Spanish above English', () => {
    expect(preferredLocale(acceptedLanguages('en;q=0.4, es-US;q=0.9'))).toBe('es');
    expect(preferredLocale(acceptedLanguages('es;q=0, en'))).toBe('en');
  });
});
