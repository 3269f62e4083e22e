/** Which language a browser prefers (contract/shared/locale.ts): the app, its page and the sandbox partners share it. */
import { describe, expect, it } from 'vitest';
import { acceptedLanguages, localeOfAcceptLanguage, preferredLocale, refusedLanguages } from '../../contract/shared/locale.ts';

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
    ['es ; Q=0.1 , en;q=0.2', ['en', 'es']],
    // A weight that is not a qvalue (§12.5.1: 0 to 1, at most three decimals) makes its range malformed.
    ['es;q=1.5, en;q=0.5', ['en']],
    ['es;q=0x1, en;q=0.5', ['en']],
    ['es;q=, en;q=0.5', ['en']],
    ['es;q=0.1234, en;q=0.5', ['en']],
    ['es;q=1.000, en;q=0.999', ['es', 'en']],
    ['*', ['*']],
    ['', []],
  ])('"%s" lists %j', (header, expected) => {
    expect(acceptedLanguages(header)).toEqual(expected);
  });

  it('has no languages when the header is absent', () => {
    expect(acceptedLanguages(undefined)).toEqual([]);
    expect(refusedLanguages(undefined)).toEqual([]);
  });

  it('lists the refused ranges apart', () => {
    expect(refusedLanguages('en;q=0, es, fr;q=0.000')).toEqual(['en', 'fr']);
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
    // Not Spanish: a tag that only begins with the letters (Estonian).
    [['est', 'en'], 'en'],
    [['ES-419'], 'es'],
    // Android writes its locales with an underscore (a companion app's setting may come so).
    [['es_US'], 'es'],
    [['', 'es'], 'es'],
  ] as const)('%j → %s', (languages, locale) => {
    expect(preferredLocale(languages)).toBe(locale);
  });


  it.each([
    ['en;q=0.4, es-US;q=0.9', 'es'],
    ['es;q=0, en', 'en'],
    // A refused language is never chosen: `*` stands for the app's languages not refused.
    ['en;q=0, *', 'es'],
    ['es;q=0, *', 'en'],
    ['en;q=0', 'es'],
    ['fr, en;q=0', 'es'],
    ['fr', 'en'],
    [undefined, 'en'],
  ])('a request with Accept-Language %s gets %s', (header, locale) => {
    expect(localeOfAcceptLanguage(header)).toBe(locale);
  });
});
