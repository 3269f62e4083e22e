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
 * Whether the error screen is shown. A screen that throws while it renders leaves its route's match a
 * success, so the router's state cannot tell the shell; the error screen says so here while it is up.
 */
let errorScreensShown = 0;
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

export const useErrorScreenShown = (): boolean => useSyncExternalStore(subscribe, () => errorScreensShown > 0);

/** Called by the error screen: marks it shown while it is mounted. */
export function useMarkErrorScreenShown(): void {
  useEffect(() => {
    errorScreensShown += 1;
    listeners.forEach((listener) => listener());
    return () => {
      errorScreensShown -= 1;
      listeners.forEach((listener) => listener());
    };
  }, []);
}
