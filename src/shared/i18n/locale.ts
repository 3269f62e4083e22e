/** Lingui activation and locale detection. Catalogues load on demand; `<html lang>` follows. */
import { i18n } from '@lingui/core';
import { preferredLocale, splashLabel } from '../../../contract/shared/locale.ts';
import type { Locale } from '../../../contract/shared/locale.ts';

/** Spanish when the browser prefers it, English otherwise (the host's setting wins when embedded). */
export function detectLocale(languages: readonly string[] = navigator.languages ?? [navigator.language]): Locale {
  return preferredLocale(languages);
}

export async function activateLocale(locale: Locale): Promise<void> {
  if (i18n.locale === locale) return;
  const { messages } = locale === 'es' ? await import('../../../locales/es/messages.po') : await import('../../../locales/en/messages.po');
  i18n.loadAndActivate({ locale, messages });
  document.documentElement.lang = locale;
}

/**
 * The splash in the cardholder's language while the app starts: the server wrote it in the browser's,
 * and a cardholder may have chosen the other one.
 */
export function labelSplash(locale: Locale): void {
  document.documentElement.lang = locale;
  document.getElementById('loader-overlay')?.setAttribute('aria-label', splashLabel[locale]);
}
