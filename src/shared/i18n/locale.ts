/** Lingui activation and locale detection. Catalogues load on demand; `<html lang>` follows. */
import { i18n } from '@lingui/core';
import type { Locale } from '../../../machines/session/session.ts';

export const locales: readonly Locale[] = ['en', 'es'];

/** Spanish when the browser prefers it, English otherwise (the host's setting wins when embedded). */
export function detectLocale(languages: readonly string[] = navigator.languages ?? [navigator.language]): Locale {
  const preferred = languages.find((language) => /^(en|es)\b/i.test(language));
  return preferred?.toLowerCase().startsWith('es') ? 'es' : 'en';
}

export async function activateLocale(locale: Locale): Promise<void> {
  if (i18n.locale === locale) return;
  const { messages } = locale === 'es' ? await import('../../../locales/es/messages.po') : await import('../../../locales/en/messages.po');
  i18n.loadAndActivate({ locale, messages });
  document.documentElement.lang = locale;
}
