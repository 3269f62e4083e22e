/**
 * useFocusOnProblem: a new problem takes the focus to the field in error; when the form was sent with
 * Enter from that very field, the focus is there already, so the problem is said as an alert instead,
 * each time, the same words too (a second wrong try), and no longer once it is gone.
 */
import { render, screen } from '@testing-library/react';
import { useRef, type RefObject } from 'react';
import { describe, expect, it } from 'vitest';
import { TextField } from '../../src/shared/components/TextField.tsx';
import { useFocusOnProblem } from '../../src/shared/components/useFocusOnProblem.ts';

function Form({ error, tries, announce = false }: { error?: string; tries: number; announce?: boolean }) {
  const form = useRef<HTMLFormElement>(null);
  useFocusOnProblem(form, tries, Boolean(error));
  return (
    <form ref={form}>
      <TextField id="code" label="Unlock code" error={error} announce={announce} />
      <button type="submit">Unlock</button>
    </form>
  );
}

const alerts = () => screen.queryAllByRole('alert').map((alert) => alert.textContent);

describe('useFocusOnProblem', () => {
  it('moves the focus from the button to the field in error, and says nothing more', () => {
    const { rerender } = render(<Form tries={0} />);
    screen.getByRole('button', { name: 'Unlock' }).focus();

    rerender(<Form tries={1} error="This isn't the right code." />);

    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Unlock code' }));
    expect(alerts()).toEqual([]);
  });

  it('says the problem as an alert when the field in error has the focus already, each time, until it is gone', () => {
    const { rerender } = render(<Form tries={0} />);
    const field = screen.getByRole('textbox', { name: 'Unlock code' });
    field.focus();

    rerender(<Form tries={1} error="Please enter 4 digits." />);
    expect(alerts()).toEqual(['Please enter 4 digits.']);
    const first = screen.getByRole('alert');

    rerender(<Form tries={2} error="Please enter 4 digits." />);
    expect(alerts()).toEqual(['Please enter 4 digits.']);
    // A new element: screen readers say an addition, not text that stayed the same.
    expect(screen.getByRole('alert')).not.toBe(first);
    expect(document.activeElement).toBe(field);

    rerender(<Form tries={3} />);
    expect(alerts()).toEqual([]);
  });

  it('adds nothing when the focused message holds an alert already (a refusal of the whole form)', () => {
    function Refused({ tries }: { tries: number }) {
      const form = useRef<HTMLFormElement>(null);
      const message = useRef<HTMLDivElement>(null);
      useFocusOnProblem(form, tries, true, message as RefObject<HTMLElement | null>);
      return (
        <form ref={form}>
          <div ref={message} tabIndex={-1}>
            <p role="alert">We weren't able to text a code.</p>
          </div>
        </form>
      );
    }
    const { rerender } = render(<Refused tries={1} />);
    expect(alerts()).toEqual(["We weren't able to text a code."]);

    rerender(<Refused tries={2} />);

    expect(alerts()).toEqual(["We weren't able to text a code."]);
  });

  it('adds nothing when the field says its error as an alert itself', () => {
    const { rerender } = render(<Form tries={0} announce />);
    screen.getByRole('textbox', { name: 'Unlock code' }).focus();

    rerender(<Form tries={1} error="Please enter 4 digits." announce />);

    expect(alerts()).toEqual(['Please enter 4 digits.']);
  });
});
