/**
 * Sets `<title>` to the screen's own title (src/app/screenTitles.ts, or the one a screen that is up gave
 * itself: src/shared/screens/documentTitle.ts) in the current language. The
 * table of titles loads beside the first screen's own code rather than in every first load; until it
 * arrives the page keeps index.html's title (the product's name).
 */
import { useLingui } from '@lingui/react';
import { useMatches } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { documentTitle, useShownOwnTitle } from '../shared/screens/documentTitle.ts';

type Titles = typeof import('./screenTitles.ts');

/** The matched address's title key: a route's full path, `notFound`, or '' while only a redirect matches. */
function titleKeyOf(titles: Titles | null) {
  return (matches: readonly { fullPath: string }[]): string => {
    if (!titles) return '';
    if (matches.some((match) => (match as { _notFound?: boolean })._notFound)) return 'notFound';
    return [...matches].reverse().find((match) => titles.screenTitles[match.fullPath])?.fullPath ?? '';
  };
}

export function useScreenTitle(): void {
  const { i18n } = useLingui();
  const [titles, setTitles] = useState<Titles | null>(null);
  useEffect(() => {
    void import('./screenTitles.ts').then(setTitles);
  }, []);
  const key = useMatches({ select: titleKeyOf(titles) });
  const own = useShownOwnTitle();
  const title = own ?? (!titles ? undefined : key === 'notFound' ? titles.notFoundTitle : titles.screenTitles[key]);
  const text = title ? documentTitle(i18n, title) : null;
  useEffect(() => {
    if (text) document.title = text;
  }, [text]);
}
