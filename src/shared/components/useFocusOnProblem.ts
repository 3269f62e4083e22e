import { type RefObject, useEffect } from 'react';

/**
 * Moves focus to the first invalid field whenever the form shows a new problem, so a screen reader
 * reads the field with its error (tied by aria-describedby); with no field in error, to `message` (a
 * problem said for the whole form, focusable with tabIndex -1). After a call the focus is on the
 * submit button (SubmitButton keeps it there): this moves it to where the problem is.
 */
export function useFocusOnProblem(form: RefObject<HTMLElement | null>, trigger: unknown, active: boolean, message?: RefObject<HTMLElement | null>) {
  useEffect(() => {
    if (!active) return;
    (form.current?.querySelector<HTMLElement>('[aria-invalid="true"]') ?? message?.current)?.focus();
  }, [form, trigger, active, message]);
}
