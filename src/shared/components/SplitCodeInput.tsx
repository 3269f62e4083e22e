/**
 * The split code input of spec §4: one box per digit. Touched after the first input; typing a digit
 * moves focus to the next box and the complete code is reported after the last one; backspace in an
 * empty box moves back; a paste spreads over the boxes from the one it lands in. Digits only: spaces,
 * newlines and anything else typed or pasted are dropped.
 */
import { useLingui } from '@lingui/react/macro';
import { useRef, type ClipboardEvent, type KeyboardEvent, type ReactNode } from 'react';

type SplitCodeInputProps = {
  id: string;
  label: ReactNode;
  length: number;
  /** The boxes' digits in order, a space for an empty box (trailing spaces dropped). */
  value: string;
  onChange: (code: string) => void;
  /** Every box is filled: the whole code (again after each change while complete). */
  onComplete?: (code: string) => void;
  /** The first input in any box. */
  onTouched?: () => void;
  type?: 'text' | 'tel';
  error?: ReactNode;
  /** The code is being checked: the boxes keep the keyboard's focus (not `disabled`) but cannot change. */
  readOnly?: boolean;
};

export const digitsOnly = (text: string) => text.replace(/\D/g, '');
const serialize = (boxes: string[]) => boxes.map((digit) => digit || ' ').join('').trimEnd();

export function SplitCodeInput({ id, label, length, value, onChange, onComplete, onTouched, type = 'tel', error, readOnly }: SplitCodeInputProps) {
  const { t } = useLingui();
  const boxes = useRef<(HTMLInputElement | null)[]>([]);
  const touched = useRef(false);
  const digits = Array.from({ length }, (_, index) => digitsOnly(value[index] ?? ''));
  const errorId = `${id}-error`;

  function focusBox(index: number) {
    boxes.current[Math.max(0, Math.min(length - 1, index))]?.focus();
  }

  /** Writes `typed` digits from box `start` on, then moves focus and reports. */
  function fill(start: number, typed: string) {
    const incoming = digitsOnly(typed);
    if (!touched.current) {
      touched.current = true;
      onTouched?.();
    }
    if (incoming === '') return;
    const next = [...digits];
    const count = Math.min(incoming.length, length - start);
    for (let offset = 0; offset < count; offset++) next[start + offset] = incoming[offset]!;
    onChange(serialize(next));
    if (start + count < length) focusBox(start + count);
    if (next.every((digit) => digit !== '')) onComplete?.(next.join(''));
  }

  /** What the user put in box `index`: a replacement, something put next to its digit, or an autofilled code. */
  function onInput(index: number, box: HTMLInputElement) {
    const typed = box.value;
    const current = digits[index] ?? '';
    if (typed === '') {
      const next = [...digits];
      next[index] = '';
      onChange(serialize(next));
      return;
    }
    // What was put next to the digit already there (a digit typed, or a code from the keyboard's
    // suggestion), before or after it, replaces it: it is what ends at the caret.
    // (Selected on focus, it is usually replaced: then the box holds only what was put in.)
    const added = typed.length - current.length;
    const end = box.selectionEnd ?? typed.length;
    fill(index, current && added > 0 ? typed.slice(Math.max(0, end - added), end) : typed);
  }

  function onKeyDown(index: number, event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Backspace') deleteBackward(index, event);
  }

  /**
   * Backspace: clears the box, or an empty box's previous one and moves there. Some Android keyboards
   * (Gboard among them) send no Backspace key, only keyCode 229 ("Unidentified"), and say what they
   * do in the input event that follows (`beforeinput`, inputType deleteContentBackward): both lead
   * here. A Backspace key handled stops its beforeinput, so one press is handled once.
   */
  function deleteBackward(index: number, event: { preventDefault: () => void }) {
    if (readOnly) return;
    event.preventDefault();
    const next = [...digits];
    if (next[index]) {
      next[index] = '';
    } else if (index > 0) {
      next[index - 1] = '';
      focusBox(index - 1);
    }
    // An emptied box in the middle stays empty: later digits keep their places.
    onChange(serialize(next));
  }

  function onPaste(index: number, event: ClipboardEvent<HTMLInputElement>) {
    event.preventDefault();
    if (readOnly) return;
    const pasted = event.clipboardData.getData('text');
    // A whole code (from the text message) is the whole code, wherever it was pasted.
    fill(digitsOnly(pasted).length >= length ? 0 : index, pasted);
  }

  const boxId = (index: number) => (index === 0 ? id : `${id}-${index + 1}`);
  return (
    <div className="field">
      <span id={`${id}-label`} className="field-label">
        {label}
      </span>
      <div
        className="split-code"
        role="group"
        aria-labelledby={`${id}-label`}
      >
        {digits.map((digit, index) => (
          <input
            key={index}
            ref={(element) => {
              boxes.current[index] = element;
              // React's onBeforeInput is not the native event: it has no inputType.
              const onBeforeInput = (event: InputEvent) => {
                if (event.inputType === 'deleteContentBackward') deleteBackward(index, event);
              };
              element?.addEventListener('beforeinput', onBeforeInput);
              return () => element?.removeEventListener('beforeinput', onBeforeInput);
            }}
            id={boxId(index)}
            className="split-code-box"
            type={type}
            inputMode="numeric"
            autoComplete={index === 0 ? 'one-time-code' : 'off'}
            // Named by the visible label and its place ("Texted code, digit 1 of 6"), so the label
            // said aloud (voice control) reaches it (WCAG 2.5.3).
            aria-labelledby={`${id}-label ${boxId(index)}`}
            aria-label={t`Digit ${index + 1} of ${length}`}
            aria-invalid={error ? true : undefined}
            // On each box, not the group: TalkBack says no group's description, so a box come back to
            // would not say what is wrong (WCAG 3.3.1).
            aria-describedby={error ? errorId : undefined}
            readOnly={readOnly}
            value={digit}
            onChange={(event) => onInput(index, event.target)}
            onKeyDown={(event) => onKeyDown(index, event)}
            onPaste={(event) => onPaste(index, event)}
            onFocus={(event) => event.target.select()}
          />
        ))}
      </div>
      {error ? (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
