/** A new 4-digit unlock code and its confirmation (spec §5), as registration and the unlock-code reset ask for them. */
import type { ReactNode } from 'react';
import { TextField } from './TextField.tsx';

type Field = { id: string; label: string; error: ReactNode };

export function NewUnlockCodeFields({ unlockCode, confirmation }: { unlockCode: Field; confirmation: Field }) {
  return (
    <>
      <UnlockCodeField name="unlockCode" {...unlockCode} />
      <UnlockCodeField name="unlockCodeConfirmation" {...confirmation} />
    </>
  );
}

function UnlockCodeField({ id, name, label, error }: Field & { name: string }) {
  return (
    <TextField
      id={id}
      name={name}
      type="password"
      label={label}
      inputMode="numeric"
      autoComplete="off"
      maxLength={4}
      pattern="[0-9]*"
      className="code-input"
      error={error}
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
