import { useLingui } from '@lingui/react/macro';
import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { focusIsNowhere } from './focusIsNowhere.ts';

/**
 * A polite status message; the session chart dismisses it after 5000 ms. Its live region is always in
 * the page, empty while nothing is shown: screen readers announce text put into a region that was
 * already there, and often miss one added together with its text (WCAG 2.2 SC 4.1.3).
 * While it shows, the page keeps room for it (src/styles.css `--snackbar-room`): its height as drawn,
 * which at 200% zoom on a phone, with its text on five lines, is more than the 8rem kept at the least.
 * When it goes (Dismiss pressed) while Dismiss has the keyboard's focus, the focus goes back
 * to where it came from (it is after the page, so the control before it), not to the page's start.
 * A swipe sideways over a fifth of the screen's width dismisses it too (spec §4); the page still
 * scrolls up and down through it (src/styles.css `touch-action`). While a pointer (a finger pressing
 * it) is over it or the focus is on its Dismiss, it is held: its time stops, and starts again whole
 * once both have left (`onHold`; WCAG 2.2 SC 2.2.1: a slow reader is not raced by it).
 */
export function Snackbar({ message, onDismiss, onHold }: { message: ReactNode | null; onDismiss: () => void; onHold: (held: boolean) => void }) {
  const { t } = useLingui();
  const bar = useRef<HTMLDivElement>(null);
  const shown = Boolean(message);
  /** What had the focus before Dismiss took it. */
  const cameFrom = useRef<HTMLElement | null>(null);
  /** Where a finger's swipe started (clientX; each press sets it anew: a cancelled one has no release). */
  const swipeFrom = useRef<number | null>(null);
  /** What holds it: a pointer over it, the focus in it. */
  const holding = useRef({ pointer: false, focus: false });
  const hold = (by: 'pointer' | 'focus', now: boolean) => {
    holding.current[by] = now;
    onHold(holding.current.pointer || holding.current.focus);
  };
  useLayoutEffect(() => {
    const element = bar.current;
    if (!shown || !element) return;
    const root = document.documentElement.style;
    // Its 16px from the screen's bottom, and as much again above it.
    const observer = new ResizeObserver(() => root.setProperty('--snackbar-room', `${element.offsetHeight + 32}px`));
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.removeProperty('--snackbar-room');
      // Dismiss went with it (React removed it before this runs), taking the focus to the page's start;
      // focus that is somewhere (the user went on) is left there.
      if (focusIsNowhere()) cameFrom.current?.focus();
      cameFrom.current = null;
    };
  }, [shown]);
  return (
    <div
      ref={bar}
      className={shown ? 'snackbar' : undefined}
      onPointerEnter={() => hold('pointer', true)}
      onPointerLeave={() => hold('pointer', false)}
      onFocus={() => hold('focus', true)}
      onBlur={() => hold('focus', false)}
      // A finger's: a mouse or pen dragging over the text selects it.
      onPointerDown={(event) => (swipeFrom.current = event.pointerType === 'touch' ? event.clientX : null)}
      onPointerUp={(event) => {
        if (shown && swipeFrom.current !== null && Math.abs(event.clientX - swipeFrom.current) > innerWidth / 5) onDismiss();
        swipeFrom.current = null;
      }}
    >
      <span role="status">{message}</span>
      {shown ? (
        <button type="button" className="snackbar-dismiss" onFocus={(event) => (cameFrom.current = event.relatedTarget as HTMLElement | null)} onClick={onDismiss} aria-label={t`Dismiss`}>
          ×
        </button>
      ) : null}
    </div>
  );
}
