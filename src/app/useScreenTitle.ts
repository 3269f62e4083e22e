/** Sets `<title>` to the screen's own title (src/app/screenTitles.ts) in the current language. */
import { useLingui } from '@lingui/react';
import { useMatches } from '@tanstack/react-router';
import { useEffect } from 'react';
import { notFoundTitle, screenTitles, titleSuffix } from './screenTitles.ts';

/** The matched address's title key: a route's full path, `notFound`, or '' while only a redirect matches. */
function titleKeyOf(matches: readonly { fullPath: string }[]): string {
  if (matches.some((match) => (match as { _notFound?: boolean })._notFound)) return 'notFound';
  return [...matches].reverse().find((match) => screenTitles[match.fullPath])?.fullPath ?? '';
}

export function useScreenTitle(): void {
  const { i18n } = useLingui();
  const key = useMatches({ select: titleKeyOf });
  const title = key === 'notFound' ? notFoundTitle : screenTitles[key];
  const text = title ? i18n._(title) : null;
  useEffect(() => {
    if (text) document.title = `${text} · ${titleSuffix}`;
  }, [text]);
}
