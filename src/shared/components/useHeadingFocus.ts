import { useEffect, useRef } from 'react';

/**
 * The step's heading takes focus when the step appears, so the new step is announced. Not on the
 * page's first screen, before the person has tapped, clicked or typed anything (HTML's sticky user
 * activation), as the app does not move the focus on a first screen either (src/app/AppShell.tsx): a
 * screen reader starts at the top of a new page anyway, and a focus ring round a heading nobody moved
 * to looks broken. Browsers without `navigator.userActivation` focus it as before.
 */
export function useHeadingFocus() {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (navigator.userActivation?.hasBeenActive !== false) heading.current?.focus();
  }, []);
  return heading;
}
