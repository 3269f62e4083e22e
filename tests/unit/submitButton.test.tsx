/** The submit button: while unavailable it keeps the keyboard's focus and submits nothing, by press or by Enter. */
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { SubmitButton } from '../../src/shared/components/SubmitButton.tsx';

function renderForm(unavailable: boolean) {
  const submitted = vi.fn((event: { preventDefault: () => void }) => event.preventDefault());
  render(
    <form onSubmit={submitted}>
      <label htmlFor="code">Code</label>
      <input id="code" name="code" />
      <SubmitButton unavailable={unavailable}>Save</SubmitButton>
    </form>,
  );
  return { submitted, button: screen.getByRole('button', { name: 'Save' }), field: screen.getByLabelText('Code') };
}

describe('SubmitButton', () => {
  it('submits by press and by Enter in a field when available', async () => {
    const { submitted, button, field } = renderForm(false);
    expect(button.getAttribute('aria-disabled')).toBe('false');
    await userEvent.click(button);
    await userEvent.type(field, '1{Enter}');
    expect(submitted).toHaveBeenCalledTimes(2);
  });

  it('while unavailable is announced so, keeps its focus, and neither a press nor Enter submits', async () => {
    const { submitted, button, field } = renderForm(true);
    expect(button.getAttribute('aria-disabled')).toBe('true');
    expect((button as HTMLButtonElement).disabled).toBe(false);
    await userEvent.click(button);
    expect(document.activeElement).toBe(button);
    await userEvent.keyboard('{Enter}');
    await userEvent.type(field, '1{Enter}');
    expect(submitted).not.toHaveBeenCalled();
  });
});
