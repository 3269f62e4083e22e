import { type RefObject, useEffect } from 'react';

/**
 * Moves focus to the first invalid field whenever the form shows a new problem, so a screen reader
 * reads the field with its error (tied by aria-describedby); with no field in error, to `message` (a
 * problem said for the whole form, focusable with tabIndex -1). After a call the focus is on the
 * submit button (SubmitButton keeps it there): this moves it to where the problem is. A form sent with
 * Enter from the field in error leaves the focus there already, and focusing it again says nothing:
 * then the problem is said as an alert (`sayProblem`), until it is gone or the next one comes.
 */
export function useFocusOnProblem(form: RefObject<HTMLElement | null>, trigger: unknown, active: boolean, message?: RefObject<HTMLElement | null>) {
  useEffect(() => {
    if (!active || !form.current) return;
    const target = form.current.querySelector<HTMLElement>('[aria-invalid="true"]') ?? message?.current;
    if (target !== document.activeElement) {
      target?.focus();
      return;
    }
    const said = target && sayProblem(form.current, target);
    return () => said?.remove();
  }, [form, trigger, active, message]);
}

/**
 * A field's error (its `…-error` description) or a message, said by adding it to the form as an alert
 * (unseen): added, not changed, so the same words a second time are said again. Nothing when it is or
 * holds an alert already (a TextField that announces, a message with role alert or an alert in it).
 */
function sayProblem(form: HTMLElement, target: HTMLElement): HTMLElement | undefined {
  const errors = (target.getAttribute('aria-describedby') ?? '').split(' ').filter((id) => id.endsWith('-error'));
  const shown = errors.length > 0 ? errors.map((id) => document.getElementById(id)) : [target];
  if (shown.some((element) => element?.closest('[role="alert"]') ?? element?.querySelector('[role="alert"]'))) return undefined;
  const said = Object.assign(document.createElement('p'), { className: 'visually-hidden', textContent: shown.map((element) => element?.textContent).join(' ') });
  said.setAttribute('role', 'alert');
  form.append(said);
  return said;
}
