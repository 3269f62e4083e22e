import { type RefObject, useEffect } from 'react';

/**
 * Moves focus to the first invalid field whenever the form shows a new problem, so a screen reader
 * reads the field with its error (tied by aria-describedby). After a call the submit button was
 * disabled, which drops focus to the page: this puts it back where the problem is.
 */
export function useFocusOnProblem(form: RefObject<HTMLElement | null>, trigger: unknown, active: boolean) {
  useEffect(() => {
    if (!active) return;
    form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [form, trigger, active]);
}
