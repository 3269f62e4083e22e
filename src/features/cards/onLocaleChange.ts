/**
 * The processor's pages (the PIN form, the virtual card's details, the card's picture) are in the
 * language their address was asked in. When the cardholder switches the app's language (the header's
 * switch, on every screen), the chart showing one is told (`user.changeLocale`) so it asks again in the
 * new language; not on the first render, whose pages are asked in the session's language already.
 */
import { useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import { useServices } from '../../app/services.tsx';

export function useLocaleChangeSentTo(chart: { send: (event: { type: 'user.changeLocale' }) => void }): void {
  const { session } = useServices();
  const locale = useSelector(session, (s) => s.context.locale);
  const seen = useRef(locale);
  useEffect(() => {
    if (seen.current === locale) return;
    seen.current = locale;
    chart.send({ type: 'user.changeLocale' });
  }, [chart, locale]);
}
