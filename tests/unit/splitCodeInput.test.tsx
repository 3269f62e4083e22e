/**
 * The split code input of spec §4, as a user types, pastes and deletes: focus movement, the
 * complete code reported once after the last box, digits only, and what a screen reader hears.
 */
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { SplitCodeInput } from '../../src/shared/components/SplitCodeInput.tsx';
import { activateLocale } from '../../src/shared/i18n/locale.ts';

function Harness(props: { onComplete?: (code: string) => void; onTouched?: () => void; onChange?: (code: string) => void; error?: string; readOnly?: boolean }) {
  const [value, setValue] = useState('');
  return (
    <I18nProvider i18n={i18n}>
      <SplitCodeInput
        id="code"
        label="Texted code"
        length={4}
        value={value}
        onChange={(code) => {
          setValue(code);
          props.onChange?.(code);
        }}
        onComplete={props.onComplete}
        onTouched={props.onTouched}
        error={props.error}
        readOnly={props.readOnly}
      />
      <output data-testid="value">{value}</output>
    </I18nProvider>
  );
}

const box = (n: number) => screen.getByLabelText(`Digit ${n} of 4`);
const value = () => screen.getByTestId('value').textContent;

function setup(props: Parameters<typeof Harness>[0] = {}) {
  const user = userEvent.setup();
  render(<Harness {...props} />);
  return user;
}

beforeAll(async () => {
  await activateLocale('en');
});

describe('SplitCodeInput', () => {
  it('is one labelled group of four numeric boxes, each named for screen readers', () => {
    setup();
    const group = screen.getByRole('group', { name: 'Texted code' });
    expect(group).toBeTruthy();
    for (let n = 1; n <= 4; n++) {
      expect(box(n).getAttribute('inputmode')).toBe('numeric');
      expect(group.contains(box(n))).toBe(true);
    }
    expect(box(1).getAttribute('autocomplete')).toBe('one-time-code');
    // Each box's name carries the visible label, so saying it (voice control) reaches the boxes (WCAG 2.5.3).
    for (let n = 1; n <= 4; n++) expect(screen.getByRole('textbox', { name: `Texted code Digit ${n} of 4` })).toBe(box(n));
  });

  it('moves focus forward as each box fills and reports the code once, after the last box', async () => {
    const onComplete = vi.fn();
    const onTouched = vi.fn();
    const user = setup({ onComplete, onTouched });
    await user.click(box(1));
    await user.keyboard('1');
    expect(onTouched).toHaveBeenCalledTimes(1);
    expect(document.activeElement).toBe(box(2));
    await user.keyboard('2');
    await user.keyboard('3');
    expect(document.activeElement).toBe(box(4));
    expect(onComplete).not.toHaveBeenCalled();
    await user.keyboard('4');
    expect(onComplete).toHaveBeenCalledTimes(1);
    expect(onComplete).toHaveBeenCalledWith('1234');
    expect(onTouched).toHaveBeenCalledTimes(1);
    expect(value()).toBe('1234');
  });

  it('ignores letters, spaces and other characters', async () => {
    const user = setup();
    await user.click(box(1));
    await user.keyboard('a');
    await user.keyboard(' ');
    await user.keyboard('-');
    expect(value()).toBe('');
    expect(document.activeElement).toBe(box(1));
    await user.keyboard('7');
    expect(value()).toBe('7');
  });

  it('backspace in an empty box clears the one before and moves back to it', async () => {
    const user = setup();
    await user.click(box(1));
    await user.keyboard('12');
    expect(document.activeElement).toBe(box(3));
    await user.keyboard('{Backspace}');
    expect(value()).toBe('1');
    expect(document.activeElement).toBe(box(2));
    await user.keyboard('{Backspace}');
    expect(value()).toBe('');
    expect(document.activeElement).toBe(box(1));
  });

  it('backspace in a filled box clears it and stays; later digits keep their places', async () => {
    const user = setup();
    await user.click(box(1));
    await user.keyboard('123');
    await user.click(box(2));
    await user.keyboard('{Backspace}');
    expect(document.activeElement).toBe(box(2));
    expect(value()).toBe('1 3');
    await user.keyboard('9');
    expect(value()).toBe('193');
  });

  it('backspace from an Android keyboard that sends no Backspace key (keyCode 229), only its beforeinput, works the same', async () => {
    const user = setup();
    await user.click(box(1));
    await user.keyboard('123');
    // As Gboard sends it: an unidentified key, then the input event saying what it does.
    const androidBackspace = (target: HTMLElement) => {
      act(() => {
        fireEvent.keyDown(target, { key: 'Unidentified', keyCode: 229 });
        target.dispatchEvent(new InputEvent('beforeinput', { inputType: 'deleteContentBackward', bubbles: true, cancelable: true }));
      });
    };
    expect(document.activeElement).toBe(box(4));
    androidBackspace(box(4));
    expect(value()).toBe('12');
    expect(document.activeElement).toBe(box(3));
    // In a filled box: cleared, the focus stays; the browser deletes nothing more (its default prevented).
    await user.click(box(2));
    androidBackspace(box(2));
    expect(value()).toBe('1');
    expect(document.activeElement).toBe(box(2));
  });

  it('one Backspace key press is handled once, though the browser would follow it with its beforeinput', async () => {
    const user = setup();
    await user.click(box(1));
    await user.keyboard('123');
    await user.click(box(4));
    const before = vi.fn();
    box(4).addEventListener('beforeinput', before);
    await user.keyboard('{Backspace}');
    // Only the third digit went: not the second too, as a second handling would.
    expect(value()).toBe('12');
    expect(document.activeElement).toBe(box(3));
    expect(before).not.toHaveBeenCalled();
  });

  it('a pasted code spreads over the boxes from where it lands, stripping spaces and newlines', async () => {
    const onComplete = vi.fn();
    const user = setup({ onComplete });
    await user.click(box(1));
    await user.paste(' 12 3\n4 ');
    expect(value()).toBe('1234');
    expect(onComplete).toHaveBeenCalledWith('1234');
  });

  it('a paste in the middle fills from there, its overflow past the last box dropped; a whole code fills from the first box', async () => {
    const onComplete = vi.fn();
    const user = setup({ onComplete });
    await user.click(box(3));
    await user.paste('567');
    expect(value()).toBe('  56');
    expect(onComplete).not.toHaveBeenCalled();
    await user.click(box(1));
    await user.paste('12');
    expect(value()).toBe('1256');
    expect(onComplete).toHaveBeenCalledWith('1256');
    // The whole code pasted into the third box: it is the code, not its first digits from there.
    await user.click(box(3));
    await user.paste('9876');
    expect(value()).toBe('9876');
    expect(onComplete).toHaveBeenLastCalledWith('9876');
  });

  it('a pasted text with no digits changes nothing', async () => {
    const onChange = vi.fn();
    const user = setup({ onChange });
    await user.click(box(1));
    await user.paste('abc \n');
    expect(onChange).not.toHaveBeenCalled();
  });

  it('an error marks every box invalid and is announced, and each box says it (TalkBack reads no group description)', () => {
    setup({ error: "This isn't the right code." });
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toBe("This isn't the right code.");
    for (let n = 1; n <= 4; n++) {
      expect(box(n).getAttribute('aria-invalid')).toBe('true');
      expect(box(n).getAttribute('aria-describedby')).toBe(alert.id);
    }
    expect(screen.getByRole('group', { name: 'Texted code' }).getAttribute('aria-describedby')).toBeNull();
  });
});

describe('SplitCodeInput over a code already typed', () => {
  it('typing a new code from the first box replaces every digit', async () => {
    const onComplete = vi.fn();
    const user = setup({ onComplete });
    await user.click(box(1));
    await user.keyboard('0000');
    expect(onComplete).toHaveBeenLastCalledWith('0000');
    await user.click(box(1));
    await user.keyboard('1234');
    expect(value()).toBe('1234');
    expect(onComplete).toHaveBeenLastCalledWith('1234');
  });

  it("what is put next to a digit already in a box, before or after it (a digit, or a code from the keyboard's suggestion), replaces it", async () => {
    const onComplete = vi.fn();
    setup({ onComplete });
    // As the phone's keyboard puts text in: the box's new value, the caret after what it put in.
    const putIn = (element: HTMLElement, boxValue: string, caret: number) =>
      act(() => {
        const input = element as HTMLInputElement;
        Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, boxValue);
        input.setSelectionRange(caret, caret);
        input.dispatchEvent(new Event('input', { bubbles: true }));
      });
    putIn(box(1), '5', 1);
    putIn(box(1), '57', 2);
    expect(value()).toBe('7');
    putIn(box(1), '87', 1);
    expect(value()).toBe('8');
    putIn(box(1), '81234', 5);
    expect(value()).toBe('1234');
    expect(onComplete).toHaveBeenLastCalledWith('1234');
    putIn(box(1), '43211', 4);
    expect(value()).toBe('4321');
    expect(onComplete).toHaveBeenLastCalledWith('4321');
  });

  it('read-only while the code is checked: the boxes keep the focus, and typing, deleting or pasting changes nothing', async () => {
    const onChange = vi.fn();
    const user = setup({ onChange, readOnly: true });
    await user.click(box(2));
    expect(document.activeElement).toBe(box(2));
    expect(box(2).hasAttribute('readonly')).toBe(true);
    await user.keyboard('7{Backspace}');
    await user.paste('1234');
    expect(onChange).not.toHaveBeenCalled();
    expect(value()).toBe('');
    expect(document.activeElement).toBe(box(2));
  });
});
