import { useSelector } from '@xstate/react';
import type { Locale } from '../../../contract/shared/locale.ts';
import { useServices } from '../../app/services.tsx';

/** Each language is offered in its own words, so a reader of either can find it. */
export function LanguageSwitch() {
  const { session } = useServices();
  const locale = useSelector(session, (s) => s.context.locale);
  const other: Locale = locale === 'en' ? 'es' : 'en';
  return (
    <button type="button" className="link-button" lang={other} onClick={() => session.send({ type: 'user.changeLocale', locale: other })}>
      {other === 'es' ? 'Español' : 'English'}
    </button>
  );
}
