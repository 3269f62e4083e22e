/**
 * The document's `<title>` (WCAG 2.2 SC 2.4.2): a screen's own title, then the product's name, both in
 * the reader's language. The screens' titles load beside the first screen (src/app/screenTitles.ts);
 * these go with the entry, as the error screen must be titled when the network is what failed.
 */
import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useEffect, useSyncExternalStore } from 'react';

/** What follows each screen's title. */
export const titleSuffix = msg`Providers card`;

/** A screen that failed to show (ErrorView). */
export const errorTitle = msg`Something went wrong`;

export const documentTitle = (i18n: I18n, title: MessageDescriptor) => `${i18n._(title)} · ${i18n._(titleSuffix)}`;

/**
 * Titles that screens give themselves while they are up, over their route's: the error screen (a
 * screen that throws while it renders leaves its route's match a success, so the router's state cannot
 * tell), a screen shown in place of another at the same address (reporting a card lost on Manage
 * cards), one whose heading its query chooses (the ATM PIN), and a flow's result screen (ResultHeading:
 * a receipt, a reset done). The last one mounted is the title. One entry
 * per mounted screen, so two with the same title each keep theirs.
 */
let ownTitles: readonly { title: MessageDescriptor }[] = [];
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};
const setOwnTitles = (titles: readonly { title: MessageDescriptor }[]) => {
  ownTitles = titles;
  listeners.forEach((listener) => listener());
};

/** The title a screen that is up gave itself, or null: its route's title is the one. */
export const useShownOwnTitle = (): MessageDescriptor | null => useSyncExternalStore(subscribe, () => ownTitles.at(-1)?.title ?? null);

/** Gives the document `title` while the calling screen is mounted (null: its route's). A module-level `msg`. */
export function useOwnTitle(title: MessageDescriptor | null): void {
  useEffect(() => {
    if (!title) return;
    const entry = { title };
    setOwnTitles([...ownTitles, entry]);
    return () => setOwnTitles(ownTitles.filter((shown) => shown !== entry));
  }, [title]);
}
