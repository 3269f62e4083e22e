/** A button that starts a call: while unavailable it keeps the keyboard's focus and a press, Enter or Space does nothing. */
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ActionButton } from '../../src/shared/components/ActionButton.tsx';

function renderButton(unavailable: boolean) {
  const pressed = vi.fn();
  render(
    <ActionButton unavailable={unavailable} onPress={pressed}>
      Block my card
    </ActionButton>,
  );
  return { pressed, button: screen.getByRole('button', { name: 'Block my card' }) };
}

describe('ActionButton', () => {
  it('does its work by press, Enter and Space when available', async () => {
    const { pressed, button } = renderButton(false);
    expect(button.getAttribute('aria-disabled')).toBe('false');
    await userEvent.click(button);
    await userEvent.keyboard('{Enter}');
    await userEvent.keyboard(' ');
    expect(pressed).toHaveBeenCalledTimes(3);
  });

  it('while unavailable is announced so, keeps its focus, and neither a press nor Enter nor Space does anything', async () => {
    const { pressed, button } = renderButton(true);
    expect(button.getAttribute('aria-disabled')).toBe('true');
    expect((button as HTMLButtonElement).disabled).toBe(false);
    await userEvent.click(button);
    expect(document.activeElement).toBe(button);
    await userEvent.keyboard('{Enter}');
    await userEvent.keyboard(' ');
    expect(pressed).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(button);
  });
});
