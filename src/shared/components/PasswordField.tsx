/** A password field with a "Show password" toggle (NIST SP 800-63B §5.1.1.2: let people see what they type). */
import { useLingui } from '@lingui/react/macro';
import { useState, type ComponentProps } from 'react';
import { TextField } from './TextField.tsx';

export function PasswordField(props: Omit<ComponentProps<typeof TextField>, 'type' | 'adornment'>) {
  const { t } = useLingui();
  const [shown, setShown] = useState(false);
  return (
    <TextField
      {...props}
      type={shown ? 'text' : 'password'}
      autoCapitalize="none"
      autoCorrect="off"
      spellCheck={false}
      adornment={
        // One name whatever the state; aria-pressed says whether the password shows.
        <button type="button" className="link-button password-toggle" aria-pressed={shown} aria-controls={props.id} onClick={() => setShown((was) => !was)}>
          {t`Show password`}
        </button>
      }
    />
  );
}
