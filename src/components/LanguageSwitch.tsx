import type { Locale } from '../../machines/session.ts';

/** Each language is offered in its own words, so a reader of either can find it. */
export function LanguageSwitch({ locale, onChange }: { locale: Locale; onChange: (locale: Locale) => void }) {
  const other: Locale = locale === 'en' ? 'es' : 'en';
  return (
    <button type="button" className="link-button" lang={other} onClick={() => onChange(other)}>
      {other === 'es' ? 'Español' : 'English'}
    </button>
  );
}
