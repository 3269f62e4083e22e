import type { MessageDescriptor } from '@lingui/core';
import { useLingui } from '@lingui/react';
import { useHeadingFocus } from '../components/useHeadingFocus.ts';
import { useOwnTitle } from './documentTitle.ts';

/**
 * The heading of a flow's result screen (a receipt, a reset done, an activation refused, an application
 * closed): it takes the focus as it appears (useHeadingFocus) and titles the tab while it is up, so the
 * tab says what the screen says (WCAG 2.2 SC 2.4.2), not the flow's name from its first step. `title` is
 * a module-level `msg`, the heading's one text.
 */
export function ResultHeading({ id, title }: { id: string; title: MessageDescriptor }) {
  const { i18n } = useLingui();
  const heading = useHeadingFocus();
  useOwnTitle(title);
  return (
    <h1 id={id} ref={heading} tabIndex={-1}>
      {i18n._(title)}
    </h1>
  );
}
