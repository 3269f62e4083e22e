/** Unlock code fields (spec §5): a new 4-digit code and its confirmation, as registration, the reset and Manage account ask for them, and one code alone (unlock, the current code). */
import type { FormEvent, ReactNode } from 'react';
import { TextField } from './TextField.tsx';

/** `defaultValue`: what was typed before, shown again (registration keeps its steps as typed); `hint`: the code's rule. */
type Field = { id: string; label: string; hint?: ReactNode; error: ReactNode; defaultValue?: string };

export function NewUnlockCodeFields({ unlockCode, confirmation }: { unlockCode: Field; confirmation: Field }) {
  return (
    <>
      <UnlockCodeField name="unlockCode" {...unlockCode} />
      <UnlockCodeField name="unlockCodeConfirmation" {...confirmation} />
    </>
  );
}

const unlockCodeLength = 4;

/**
 * Keeps only the first 4 digits of what was typed or pasted. No maxLength on the input: the browser
 * would cut a paste like "12 34" before the space is dropped.
 */
function keepDigits(event: FormEvent<HTMLInputElement>) {
  const input = event.currentTarget;
  const digits = input.value.replace(/\D/g, '').slice(0, unlockCodeLength);
  if (digits !== input.value) input.value = digits;
}

/** One 4-digit unlock code field: hidden as typed, the number pad on phones, digits only. */
export function UnlockCodeField({ id, name, label, hint, error, defaultValue }: Field & { name: string }) {
  return (
    <TextField
      id={id}
      name={name}
      type="password"
      label={label}
      hint={hint}
      inputMode="numeric"
      autoComplete="off"
      pattern="[0-9]*"
      className="code-input"
      onInput={keepDigits}
      error={error}
      defaultValue={defaultValue}
    />
  );
}

/** The two codes as typed, spaces dropped. */
export function newUnlockCodesOf(form: HTMLFormElement) {
  const data = new FormData(form);
  return {
    unlockCode: String(data.get('unlockCode') ?? '').replace(/\s/g, ''),
    unlockCodeConfirmation: String(data.get('unlockCodeConfirmation') ?? '').replace(/\s/g, ''),
  };
}
