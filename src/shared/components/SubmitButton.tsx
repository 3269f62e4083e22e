import type { ReactNode } from 'react';

/**
 * A form's submit button. While its call runs (or the server asks to wait) it is `aria-disabled`, not
 * `disabled`: Chromium moves the keyboard's focus off a button that becomes disabled, so the next Tab
 * started at the page's top, and the auth modal, closing, had nothing to give the focus back to
 * (docs/decisions.md). A press, or Enter in a field (which presses it), then submits nothing.
 */
export function SubmitButton({ unavailable, children }: { unavailable: boolean; children: ReactNode }) {
  return (
    <button type="submit" className="button" aria-disabled={unavailable} onClick={(event) => unavailable && event.preventDefault()}>
      {children}
    </button>
  );
}
