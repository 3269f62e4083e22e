/**
 * A worker that builds the formats the screens use, then ends. ICU loads its locale data on a page's
 * first Intl object and keeps it for the whole renderer, so loading it here leaves the main thread's
 * first amount or date quick (see warmUpIntl in intlWarmUp.ts).
 */
import { intlFormats, toIntlLocale } from './locale.ts';

for (const locale of (['en', 'es'] as const).map(toIntlLocale)) {
  new Intl.NumberFormat(locale, intlFormats.currency).format(0);
  new Intl.DateTimeFormat(locale, intlFormats.shortDate).format(0);
  new Intl.DateTimeFormat(locale, intlFormats.time).format(0);
}
close();
