/** The unlock code field: only digits get in, whether typed or pasted, and the number pad is asked for. */
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { UnlockCodeField } from '../../src/shared/components/NewUnlockCodeFields.tsx';

function renderField() {
  render(<UnlockCodeField id="code" name="unlockCode" label="Unlock code" error={undefined} />);
  return screen.getByLabelText('Unlock code') as HTMLInputElement;
}

describe('UnlockCodeField', () => {
  it('drops letters and symbols as they are typed', async () => {
    const input = renderField();
    await userEvent.type(input, '2a5-8 0x');
    expect(input.value).toBe('2580');
  });

  it('keeps only the digits of a paste, up to four', async () => {
    const input = renderField();
    input.focus();
    await userEvent.paste('12 34');
    expect(input.value).toBe('1234');
  });

  it('is hidden as typed and asks phones for the number pad', () => {
    const input = renderField();
    expect(input.type).toBe('password');
    expect(input.inputMode).toBe('numeric');
  });

  it('stops at four digits', async () => {
    const input = renderField();
    await userEvent.type(input, '123456');
    expect(input.value).toBe('1234');
  });
});
